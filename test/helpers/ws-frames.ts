import * as ws from 'ws';

interface Receiver {
  on(event: 'message', fn: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'error', fn: (err: Error) => void): void;
  write(chunk: Buffer): boolean;
}

/**
 * Reads what a server wrote to one connection the way a `ws` client does, with ws's own frame
 * parser (masking, lengths, UTF-8 checked), so a test of hand-made frames checks them against a
 * real client. Every message must be text.
 */
export function frameReader(): { write(bytes: Buffer): void; messages: string[] } {
  const ReceiverClass = (ws as unknown as { Receiver: new (o: object) => Receiver }).Receiver;
  const receiver = new ReceiverClass({ isServer: false, allowSynchronousEvents: true });
  const messages: string[] = [];
  let failure: Error | null = null;
  receiver.on('message', (data, isBinary) => {
    if (isBinary) failure = new Error('a binary message');
    messages.push(data.toString());
  });
  receiver.on('error', (err) => (failure = err));
  return {
    messages,
    write(bytes) {
      receiver.write(bytes);
      if (failure) throw failure;
    },
  };
}
