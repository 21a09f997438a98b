'use strict';
// Preloaded (-r) into a server being profiled: exit normally on SIGTERM so that `--cpu-prof` writes its profile.
process.once('SIGTERM', () => process.exit(0));
