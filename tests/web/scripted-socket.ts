/** The browser's WebSocket, driven by the test: what the client sends is kept, and the test plays the server. */
export class ScriptedSocket {
  static readonly OPEN = 1;
  static opened: ScriptedSocket[] = [];
  readyState = 0;
  readonly sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;

  constructor(readonly url: string) {
    ScriptedSocket.opened.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
  }
  accept() {
    this.readyState = ScriptedSocket.OPEN;
    this.onopen?.();
  }
  closedByServer(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}
