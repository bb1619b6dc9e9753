/** The application's version, from package.json (bundled into the Electron build, read as JSON under Node). */
import pkg from '../package.json' with { type: 'json' };

export const APP_VERSION: string = pkg.version;
