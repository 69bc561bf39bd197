// Runs `serveModuleOverStdio(<module>)` as `toolsmith mcp <module>` would (spawned by tests).
import { serveModuleOverStdio } from '../serve-module-over-stdio';

void serveModuleOverStdio(process.argv[2], { cwd: __dirname });
