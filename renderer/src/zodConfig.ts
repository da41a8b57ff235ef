import { z } from 'zod';

// The UI runs under a CSP without 'unsafe-eval'. Zod's JIT probes `new Function`, which the
// CSP reports as a violation; jitless skips the probe. Must run before any schema is built,
// so main.tsx imports this module first.
z.config({ jitless: true });
