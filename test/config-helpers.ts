import { join } from 'node:path';
import type { ConfigTexts } from '../src/core/config/validate-set.js';
import { readConfigTexts } from '../src/client/templates.js';

export const DEFAULTS = join(import.meta.dirname, '..', 'defaults', 'config');

/** The texts of a config directory laid out as $JIG_HOME/config is (the lint verb's own reader). */
export const readConfigDir: (dir: string) => ConfigTexts = readConfigTexts;
