import type { ErrorCode } from '../../contract/index.js';

export const HTTP_STATUS: Record<ErrorCode, number> = {
  'invalid-input': 400,
  'workspace-missing': 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  locked: 423,
  damaged: 500,
  internal: 500,
};
