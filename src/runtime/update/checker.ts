import type { UpdateAnswer } from '../../contract/routes/update.js';
import { withoutCredentials } from '../../core/diagnostics/credentials.js';
import { stamp, systemClock, type Clock } from '../clock.js';
import { compareVersions, newestOnChannel, type Channel } from '../../core/update/versions.js';
import { installedVersion } from '../package-root.js';
import { feedUrl, fetchDistTags, packageName } from './feed.js';

interface Checked {
  at: string;
  feed: string;
  distTags: Record<string, string>;
}

/**
 * What a person runs to apply an answer (the board's About shows it): an install when the channel
 * has a newer version (its restart is `--restart`, or the restart after it), else a restart when a
 * version installed earlier is not running yet.
 */
export function applyCommand(channel: Channel, newer: boolean, restartPending: boolean): string | null {
  if (newer) return `jig admin update${channel === 'stable' ? '' : ` --channel ${channel}`} --yes`;
  return restartPending ? 'jig admin restart' : null;
}

/**
 * Answers update questions for one server: the last feed answer is kept in memory, so
 * `GET /api/update` never touches the network and only `POST /api/update/check` does.
 */
export class UpdateChecker {
  private last: Checked | null = null;
  /** One check at a time: a second caller shares the one in flight. */
  private inFlight: Promise<Checked> | null = null;

  constructor(
    private readonly running: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly clock: Clock = systemClock(),
  ) {}

  cached(channel: Channel): UpdateAnswer {
    return this.answer(channel, this.last);
  }

  async check(channel: Channel): Promise<UpdateAnswer> {
    this.inFlight ??= (async () => {
      const feed = feedUrl(this.env, packageName());
      const distTags = await fetchDistTags(feed);
      return { at: stamp(this.clock), feed, distTags };
    })().finally(() => {
      this.inFlight = null;
    });
    this.last = await this.inFlight;
    return this.answer(channel, this.last);
  }

  private answer(channel: Channel, checked: Checked | null): UpdateAnswer {
    const name = packageName();
    const installed = installedVersion();
    const latest = checked ? newestOnChannel(checked.distTags, channel) : null;
    const newer = latest !== null && (compareVersions(latest, installed) ?? 0) > 0;
    return {
      package: name,
      running: this.running,
      installed,
      channel,
      feed: withoutCredentials(checked?.feed ?? feedUrl(this.env, name)),
      checked_at: checked?.at ?? null,
      latest,
      update_available: newer,
      dist_tags: checked?.distTags ?? {},
      apply: applyCommand(channel, newer, installed !== this.running),
    };
  }
}
