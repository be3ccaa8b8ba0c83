import { closeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { ProviderDefinition, SessionReadout } from '../../contract/harness/provider.js';
import { createReader, type StreamReader } from '../../core/harness/readers/reader.js';
import { openRegular, readAt } from '../fs/regular-file.js';

/** The most bytes read at once: a log that grew by gigabytes is fed to the reader a piece at a time. */
const CHUNK = 1024 * 1024;

/**
 * Reads an agent's log as it grows, feeding its provider's reader, so tokens (and the dollars they
 * cost) are known while the agent runs, not only when it exits — which is what lets a cap stop a
 * session the moment it crosses.
 */
export class LiveUsage {
  private offset = 0;
  private readonly reader: StreamReader;
  // A read can end inside a multi-byte character; the decoder holds it until the rest arrives.
  private readonly decoder = new StringDecoder('utf8');

  /**
   * `now` is the runtime's clock: a provider that says "resets in N seconds" is read as a time from
   * it (without one, such a reset is not turned into a time).
   */
  constructor(
    private readonly logPath: string,
    provider: ProviderDefinition,
    opts: { now?: () => number } = {},
  ) {
    this.reader = createReader(provider, opts);
  }

  /**
   * Reads what was appended since the last call; answers the readout so far. The agent could have
   * replaced its log (a FIFO, a link to /dev/zero or elsewhere): anything but a regular file adds
   * nothing, and never blocks.
   */
  poll(): SessionReadout {
    const log = openRegular(this.logPath);
    if (!log.ok) return this.reader.snapshot();
    try {
      const size = log.stat.size;
      while (this.offset < size) {
        const buf = readAt(log.fd, this.offset, Math.min(CHUNK, size - this.offset));
        if (buf.length === 0) break;
        this.offset += buf.length;
        this.reader.chunk(this.decoder.write(buf));
      }
    } finally {
      closeSync(log.fd);
    }
    return this.reader.snapshot();
  }

  /** The readout once the process has exited (the last partial line counts too). */
  finish(): SessionReadout {
    this.poll();
    const rest = this.decoder.end();
    if (rest) this.reader.chunk(rest);
    this.reader.end();
    return this.reader.snapshot();
  }
}
