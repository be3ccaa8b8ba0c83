import { afterEach } from 'vitest';
import { resetKit } from './test-kit.js';

// Every board unit file, before it runs (vitest.config.ts): the kit's reset after each of its tests.
afterEach(resetKit);
