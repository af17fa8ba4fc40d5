/**
 * The customer's screen in the desktop app: a second window, full screen on a display that is not
 * the cashier's, opened when the computer has one and the Settings switch is on, moved or closed as
 * displays are plugged in and out. The choices are plain functions over plain values, and the window
 * is reached only through the few calls `CustomerWindowHost` names, so that all of it runs in Node
 * (Electron's runtime cannot run in the tests); index.ts gives it Electron's `screen` and a
 * BrowserWindow.
 */

export interface DisplayArea {
  id: number;
  bounds: { x: number; y: number; width: number; height: number };
  /** The computer's own panel (a laptop's), as Electron reports it. */
  internal: boolean;
}

/**
 * The display the customer faces: any display but the cashier's, an external one before a built-in
 * panel, then the lowest id, so the choice stays put while nothing is plugged in or out.
 */
export function customerDisplayOf(
  displays: readonly DisplayArea[],
  cashierDisplayId: number | undefined,
): DisplayArea | undefined {
  return displays
    .filter((display) => display.id !== cashierDisplayId)
    .sort((a, b) => Number(a.internal) - Number(b.internal) || a.id - b.id)[0];
}

export type CustomerWindowPlan =
  | { action: 'keep' }
  | { action: 'close' }
  | { action: 'open'; display: DisplayArea }
  | { action: 'move'; display: DisplayArea };

/** What to do with the customer's window now: open, move, close, or leave it. */
export function planCustomerWindow(input: {
  enabled: boolean;
  displays: readonly DisplayArea[];
  cashierDisplayId: number | undefined;
  /** The display the window is on now; undefined when it is not open. */
  openOn: number | undefined;
}): CustomerWindowPlan {
  const display = input.enabled ? customerDisplayOf(input.displays, input.cashierDisplayId) : undefined;
  if (!display) return input.openOn === undefined ? { action: 'keep' } : { action: 'close' };
  if (input.openOn === undefined) return { action: 'open', display };
  return input.openOn === display.id ? { action: 'keep' } : { action: 'move', display };
}

/** The customer's window as the controller drives it. */
export interface CustomerWindow {
  /** Fills `display`, full screen. */
  placeOn(display: DisplayArea): void;
  close(): void;
  /** Called once when the window is gone, whoever closed it. */
  onClosed(listener: () => void): void;
}

export interface CustomerWindowHost {
  displays(): DisplayArea[];
  /** The display the cashier's window is on; undefined while it has none. */
  cashierDisplayId(): number | undefined;
  /** The Settings switch of this counter. */
  enabled(): boolean;
  open(display: DisplayArea): CustomerWindow;
}

/** Keeps the customer's window where the displays and the switch say, each time one of them changes. */
export class CustomerWindows {
  #window: { window: CustomerWindow; displayId: number } | undefined;

  constructor(private readonly host: CustomerWindowHost) {}

  /** The display the customer's window is on, or undefined when none is open. */
  get openOn(): number | undefined {
    return this.#window?.displayId;
  }

  /** Call at start and whenever a display is added, removed or changed, or the switch flips. */
  update(): void {
    const plan = planCustomerWindow({
      enabled: this.host.enabled(),
      displays: this.host.displays(),
      cashierDisplayId: this.host.cashierDisplayId(),
      openOn: this.openOn,
    });
    switch (plan.action) {
      case 'keep':
        return;
      case 'close':
        this.close();
        return;
      case 'move':
        if (this.#window) {
          this.#window.window.placeOn(plan.display);
          this.#window.displayId = plan.display.id;
        }
        return;
      case 'open': {
        const window = this.host.open(plan.display);
        const opened = { window, displayId: plan.display.id };
        this.#window = opened;
        window.onClosed(() => {
          if (this.#window === opened) this.#window = undefined;
        });
        window.placeOn(plan.display);
      }
    }
  }

  close(): void {
    const open = this.#window;
    this.#window = undefined;
    open?.window.close();
  }
}
