/** The graph layout's worker: ForceAtlas2 off the thread that paints (see layoutOffThread.ts). */
import { answerLayoutRequest, type LayoutRequest, type LayoutResponse } from './graphLayout.js';

// The renderer compiles against the DOM lib; a worker's global needs only these two members.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
  postMessage(message: LayoutResponse, transfer: Transferable[]): void;
};

scope.onmessage = (event) => {
  const response = answerLayoutRequest(event.data);
  scope.postMessage(response, response.ok ? [response.result.x.buffer, response.result.y.buffer] : []);
};
