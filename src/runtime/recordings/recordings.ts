import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { JigError } from '../../contract/errors.js';
import { Recording, RecordingName, type RecordingSummary } from '../../contract/recording.js';
import type { Store } from '../../store/database.js';
import { writeFileAtomic } from '../home/atomic-write.js';
import { buildRecording } from './build-recording.js';

/*
 * The home's recordings (`recordings/<name>.json`, issue 51): written whole and atomically, named
 * by the item and the time, listed newest first, read back checked against the format.
 */

export class Recordings {
  constructor(private readonly d: { store: Store; home: string; runDir: string; now: () => Date }) {}

  get dir(): string {
    return join(this.d.home, 'recordings');
  }

  /** Records item `id` as it is now; answers the recording's name and where it is. */
  async record(id: string): Promise<{ name: string; path: string; recording: Recording }> {
    const recording = await buildRecording(this.d, id);
    const stamp = recording.recorded_at.replace(/[-:]/g, '').replace(/\.\d+/, '').toLowerCase();
    const name = `${id.toLowerCase()}-${stamp}`;
    const path = join(this.dir, `${name}.json`);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileAtomic(path, `${JSON.stringify(recording, null, 1)}\n`, 0o600);
    return { name, path, recording };
  }

  list(): RecordingSummary[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const out: RecordingSummary[] = [];
    for (const file of names) {
      const name = file.slice(0, -'.json'.length);
      if (!RecordingName.safeParse(name).success) continue;
      const r = this.tryRead(name);
      if (!r) continue;
      out.push({
        name,
        item: r.item.id,
        title: r.item.title,
        chain: r.item.chain,
        status: r.item.status,
        recorded_at: r.recorded_at,
        sessions: r.sessions.length,
        bytes: statSync(join(this.dir, file)).size,
      });
    }
    return out.sort((a, b) => b.recorded_at.localeCompare(a.recorded_at) || a.name.localeCompare(b.name));
  }

  private tryRead(name: string): Recording | null {
    try {
      return this.read(name);
    } catch {
      return null;
    }
  }

  /** Recording `name`: 404 when there is none, 422 when the file is not a recording. */
  read(name: string): Recording {
    if (!RecordingName.safeParse(name).success)
      throw new JigError('not_found', { what: `recording ${name}` });
    let text: string;
    try {
      text = readFileSync(join(this.dir, `${name}.json`), 'utf8');
    } catch {
      throw new JigError('not_found', { what: `recording ${name}` });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new JigError('validation_failed', { reason: `recording ${name}: not JSON` });
    }
    const r = Recording.safeParse(raw);
    if (!r.success) {
      const i = r.error.issues[0];
      throw new JigError('validation_failed', {
        reason: `recording ${name}: ${i?.path.join('.') ?? ''}: ${i?.message ?? 'not a recording'}`,
      });
    }
    return r.data;
  }
}
