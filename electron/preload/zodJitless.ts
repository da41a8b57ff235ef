import { z } from 'zod';

// The window's CSP has no 'unsafe-eval': keep zod from probing `new Function`. Imported first,
// before any schema is built (the renderer does the same in renderer/src/zodConfig.ts).
z.config({ jitless: true });
