import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerAppScheme } from './appProtocol.js';
import { startDesktopApp } from './desktopApp.js';

// out/electron/electron/main/main.js → the app root holding package.json.
const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

registerAppScheme();
void startDesktopApp({ appRoot, env: process.env, platform: process.platform });
