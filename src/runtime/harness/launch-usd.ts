import { loadHarnesses } from '../../core/config/load-settings.js';
import { own } from '../../core/json/own.js';
import { readConfigText } from '../config/config-dir.js';

/**
 * The `launch_usd` of a harness as harnesses.yaml says now (read at each session's watch, like the
 * rest of the file, so an edit applies to the next launch); null when unset or the file does not load.
 */
export function launchUsd(configDir: string, harness: string | null): number | null {
  if (harness === null) return null;
  const model = loadHarnesses(readConfigText(configDir, 'harnesses.yaml')).model;
  return own(model?.harnesses ?? {}, harness)?.launch_usd ?? null;
}
