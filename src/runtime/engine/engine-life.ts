/** Whether the engine is closing: nothing new starts once it is. */
export class EngineLife {
  private done = false;
  get closed(): boolean {
    return this.done;
  }
  close(): void {
    this.done = true;
  }
}
