import { describe, expect, it } from 'vitest';
import type { OperationOutput } from '../src/contract/index.js';
import { AGENT_METHODS } from '../src/agents/agentMethods.js';
import { MCP_TOOLS } from '../src/agents/mcp/mcpTools.js';

describe('MCP output schemas', () => {
  it("accept memory_search's framed answer at the contract's longest snippet (framing adds its block around it)", () => {
    const output: OperationOutput<'memory.search'> = {
      tookMs: 3,
      results: [
        {
          id: 'chunk:1',
          path: 'memory/2026-04-05.md',
          source: 'memory',
          startLine: 1,
          endLine: 9,
          snippet: 'x'.repeat(700),
          score: 0.9,
          matchedBy: ['keyword'],
          origin: 'owner',
        },
      ],
    };
    const tool = MCP_TOOLS.find((t) => t.name === 'memory_search')!;
    const framed = AGENT_METHODS['memory.search']!.frame(output);
    expect(tool.output.safeParse(framed).error?.issues ?? []).toEqual([]);
  });
});
