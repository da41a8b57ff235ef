import { AgentSocketClient } from '../../agents/socket/agentSocketClient.js';
import { readOwnerToken } from '../../agents/socket/ownerToken.js';
import { agentSocketPath } from '../../agents/socket/socketPath.js';
import type { OperationInput, OperationName, OperationOutput } from '../../contract/index.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('cli/fast');

/** A host that does not answer this fast is treated as absent: the command loads the engine instead. */
const HOST_ANSWER_MS = 1500;

/**
 * Asks the host serving `workspaceRoot` to run one read operation for the person (the socket's
 * `host.invoke`, with the data folder's owner token). Null when no host answers, it serves
 * another workspace, or it refuses: the caller then runs the full command, which explains any error.
 */
export async function invokeOnHost<N extends OperationName>(dataDir: string, workspaceRoot: string, operation: N, input: OperationInput<N>): Promise<OperationOutput<N> | null> {
  const token = readOwnerToken(dataDir);
  if (!token) return null;
  let client: AgentSocketClient;
  try {
    client = await AgentSocketClient.connect(agentSocketPath(dataDir), HOST_ANSWER_MS);
  } catch (error) {
    log.debug('nothing listens: no host runs', { error });
    return null;
  }
  try {
    return await client.call<OperationOutput<N>>('host.invoke', { token, workspace: workspaceRoot, operation, input }, searchBudget(operation));
  } catch (error) {
    log.debug('the host did not run it: the full command takes over', { operation, error });
    return null;
  } finally {
    client.close();
  }
}

/** A search waits behind a host's running sync; answering late is still faster than loading the engine. */
function searchBudget(operation: OperationName): number {
  return operation === 'memory.search' ? 30_000 : 10_000;
}
