/** The store cannot be used by this Jig (written by a newer one): said, never guessed at. */
export class StoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreRefusedError';
  }
}
