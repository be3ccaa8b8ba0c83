import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { ProviderDefinition, SessionReadout } from '../../contract/harness/provider.js';
import { createReader, type StreamReader } from '../../core/harness/readers/reader.js';

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

  constructor(
    private readonly logPath: string,
    provider: ProviderDefinition,
  ) {
    this.reader = createReader(provider, { now: Date.now });
  }

  /** Reads what was appended since the last call; answers the readout so far. */
  poll(): SessionReadout {
    if (!existsSync(this.logPath)) return this.reader.snapshot();
    const size = statSync(this.logPath).size;
    if (size > this.offset) {
      const fd = openSync(this.logPath, 'r');
      try {
        const buf = Buffer.alloc(size - this.offset);
        readSync(fd, buf, 0, buf.length, this.offset);
        this.offset = size;
        this.reader.chunk(this.decoder.write(buf));
      } finally {
        closeSync(fd);
      }
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
