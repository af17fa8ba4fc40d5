/** The facade the preload script exposes; the renderer's only way to reach the main process. */
export interface TenderBridge {
  /** Tender's version, from package.json. */
  readonly version: string;
}

declare global {
  interface Window {
    /** Absent when the screens are opened in an ordinary browser without a bridge. */
    readonly tender?: TenderBridge;
  }
}
