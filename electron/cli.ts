/**
 * The headless command line: the same engine as the desktop app, without Electron.
 *
 *   npm run gateway -- serve --data-dir <dir> --port <port> [--renderer] [--reader hid|simulator]
 *                            [--database <postgres URL> --lane <name>]
 *   npm run gateway -- keys create --name <name> [--permissions <list>] [--data-dir <dir>]
 *   npm run gateway -- keys list | keys revoke <key id>
 *   npm run gateway -- settings get [name] | settings set <name> <value>
 *   (keys, settings, staff, audit and receipt take [--database <postgres URL> --lane <name>] too)
 *   npm run gateway -- staff list | staff create --name <name> --role cashier|manager [--server <nn>]
 *   npm run gateway -- staff change <id or name> [--name] [--role] [--server] [--new-pin] | staff retire <id or name>
 *   npm run gateway -- staff unpause
 *   npm run gateway -- backup --to <file> | restore --from <file>
 *   npm run gateway -- receipt --id <id> [--copy customer|merchant|check] [--width 32|42|48] [--printer <printer>]
 *
 * Other tools rely on these spellings and on `keys create` printing the key alone on its last line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { PERMISSIONS } from '../shared/api/permissions';
import { startHeadlessScreens } from './bridge/headless';
import { ScreensNotBuiltError } from './bridge/screens-files';
import { counterTipPercentages } from './bridge/counter-preferences';
import { hidReaderSetup, type ReaderSetup } from './bridge/terminal';
import { certificateFingerprint } from './gateway/crypto/certificate';
import type { Engine } from './gateway/engine';
import { openEngine, type StoreServerOptions } from './gateway/open-store';
import { readDataDirAudit } from './gateway/store/sqlite/open';
import { backupLedger, BackupError, restoreLedger } from './gateway/backup';
import { DataDirInUseError } from './gateway/data-dir';
import { LaneInUseError } from './gateway/store/store-errors';
import { LedgerDamagedError, startGateway, type LedgerCheck } from './gateway/gateway';
import { keepEngineHeapSmall } from './gateway/heap';
import { formatTimestamp } from './gateway/http/dates';
import { InvalidKeyRequestError, parsePermissions } from './gateway/keys';
import { waitInWords } from './gateway/staff/pin-gate';
import { InvalidStaffRequestError, STAFF_ROLES, THIS_COUNTER, type StaffMember } from './gateway/staff/staff';
import { dataDirLayout, defaultDataDir } from './gateway/paths';
import {
  isSecretSetting,
  SECRET_SETTINGS,
  SETTING_DEFINITIONS,
  UnknownSettingError,
} from './gateway/settings';
import {
  readStoreServerFile,
  shownStoreServer,
  storeServerUrlHasPassword,
} from './gateway/store-server-file';
import { StoreServerSettingError, storeServerOptions } from './gateway/store-server-options';
import { PrinterError } from './gateway/receipts/printer';
import { isReceiptWidth } from './gateway/receipts/receipt';
import { NotATabError, ReceiptNotFoundError } from './gateway/receipts/receipt-service';

export const DEFAULT_PORT = 8443;
/** How the audit log names changes made here. */
const COMMAND_LINE = 'command line';

const USAGE = `Usage: npm run gateway -- <command> [options]

Commands:
  serve                         Serve the REST API on https://127.0.0.1:<port>/rest/v1
        [--renderer]            and the cashier screens at https://127.0.0.1:<port>/ (after npm run build)
        [--renderer-dir <dir>]  the built screens to serve (default: out/renderer)
        [--reader hid|simulator]  with --renderer: a MagTek reader over USB, or the swipe simulator
        [--allow-origin <origin>]  a web origin whose pages may call the API (repeatable)
        [--database <url> --lane <name>]  keep the ledger on the store's PostgreSQL server,
                                as this counter's lane (1-16 letters, digits or -); see
                                docs/operations.md, "The store server"
  keys create --name <name>     Create an API key (printed once, alone on the last line)
              [--permissions <list>]  comma-separated: ${PERMISSIONS.join(', ')} (default: all)
  keys list                     List API keys (never the keys themselves)
  keys revoke <key id>          Revoke a key by its id (from keys list) or the key itself
  staff list                    List cashiers and managers (never their PINs)
  staff create --name <name> --role cashier|manager [--server <nn>]
                                Add a person; their 4-8 digit PIN is read from standard input
  staff change <id or name>     Change a person: [--name <name>] [--role cashier|manager]
               [--server <nn>|none] [--new-pin] (the new PIN is read from standard input)
  staff retire <id or name>     Retire a person: they can no longer sign in; history keeps their name
  staff unpause                 Open PIN entry at this counter (--lane's on a store server) when too
                                many wrong PINs paused it
  settings get [name]           Show settings
  settings set <name> <value>   Change a setting: ${Object.keys(SETTING_DEFINITIONS).join(', ')};
                                a value of - is read from standard input, the only way a secret
                                (${SECRET_SETTINGS.join(', ')}) is taken
  audit [--limit <n>]           Show who voided, refunded, captured, closed batches, changed keys or
                                settings, newest first (default: the last 50)
  keys, staff, settings, audit [--database <url> --lane <name>]
                                the store's, shared by its counters, on the store server
  receipt --id <id>             Write a transaction's receipt to standard output
          [--copy customer|merchant|check]  which copy (default: customer; merchant has a signature
                                line; check is a tab's check, with a tip to fill in when tips are on)
          [--width 32|42|48]    characters per line (default: the receipt_width setting)
          [--printer <printer>] send it to a printer instead: tcp://<host>:<port> or a raw print queue
          [--database <url> --lane <name>]  a transaction of the store server's ledger
  backup --to <file>            Write a consistent copy of the ledger (safe while serving)
  restore --from <file>         Replace the ledger with a backup (stop serving first; the old
                                ledger is kept beside it as tender.db.before-restore-<time>)

Options:
  --data-dir <dir>   Where the ledger, keys and TLS certificate live (default: ${defaultDataDir()});
                     with --database, only the TLS certificate and the lock
  --port <port>      serve: loopback port (default: ${DEFAULT_PORT})
`;

class UsageError extends Error {}

/**
 * An origin as a browser sends it: scheme, host and any port, lower case, nothing after. A slash or
 * path would never match, and `null` (sandboxed frames, files) or `*` would let any page in.
 */
function parseOrigin(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !['https:', 'http:'].includes(url.protocol) || url.origin === 'null' || text !== url.origin)
    throw new UsageError(
      `--allow-origin takes an origin as a browser sends it, scheme://host[:port] with nothing after, such as https://pos.example.com, not "${text}".`,
    );
  return url.origin;
}

/** The most words each command takes after its name: a number, or one for each of its actions. */
const WORDS_TAKEN: Record<string, number | Record<string, number>> = {
  serve: 0,
  audit: 0,
  receipt: 0,
  backup: 0,
  restore: 0,
  keys: { create: 0, list: 0, revoke: 1 },
  staff: { list: 0, create: 0, change: 1, retire: 1, unpause: 0 },
  settings: { get: 1, set: 2 },
};

/** A word too many is a mistake, never ignored: an unquoted value would be cut at its first space. */
function refuseExtraWords(command: string, action: string | undefined, rest: readonly string[]): void {
  const taken = WORDS_TAKEN[command];
  if (taken === undefined) return;
  const [name, max, words] =
    typeof taken === 'number'
      ? [command, taken, [action, ...rest].filter((word) => word !== undefined)]
      : [`${command} ${action ?? ''}`, action === undefined ? 0 : (taken[action] ?? Infinity), rest];
  if (words.length <= max) return;
  throw new UsageError(
    `${name} takes ${max === 0 ? 'no more words' : `at most ${max}`}; "${words[max]}" is one too many. ` +
      'Put a value with spaces in quotes.',
  );
}

/**
 * A command that only reads was pointed at a data dir with no ledger, or any command at a file:
 * nothing to read, nothing made.
 */
class NoLedgerError extends Error {}

/** The commands that only read: run on a data dir without a ledger, they would make an empty one. */
function onlyReads(command: string, action: string | undefined): boolean {
  if (command === 'audit' || command === 'receipt') return true;
  if (command === 'settings') return action === 'get';
  return (command === 'keys' || command === 'staff') && action === 'list';
}

/**
 * Whether a folder could not be the data dir meant: it holds no ledger and is not an empty folder
 * made for one (it does not exist, as when --data-dir is mistyped, or it holds other things).
 */
function notADataDir(dataDir: string): boolean {
  if (existsSync(dataDirLayout(dataDir).database)) return false;
  try {
    return readdirSync(dataDir).length > 0;
  } catch (error) {
    // Any other failure to read the folder (no permission, not a folder) is said as it is.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/** The printer did not take the receipt: said in words, with its own exit status. */
class PrintFailedError extends Error {}

/**
 * The data dir has no active key by the id given: the command was well formed, so it is a failure
 * (exit 1), as an unknown transaction or person is, not a usage mistake.
 */
class NoSuchKeyError extends Error {}

async function receipt(
  dataDir: string,
  values: { id?: string; copy?: string; width?: string; printer?: string },
  store: StoreServerOptions | undefined,
): Promise<void> {
  if (values.id === undefined || !/^[1-9]\d{0,14}$/.test(values.id)) {
    throw new UsageError(
      `receipt needs --id <transaction id>, a positive whole number${values.id ? `, not "${values.id}"` : ''}.`,
    );
  }
  const copy = values.copy ?? 'customer';
  if (copy !== 'customer' && copy !== 'merchant' && copy !== 'check') {
    throw new UsageError(`--copy takes customer, merchant or check, not "${copy}".`);
  }
  const width = values.width === undefined ? undefined : Number(values.width);
  if (width !== undefined && (!/^\d+$/.test(values.width ?? '') || !isReceiptWidth(width))) {
    throw new UsageError(`--width takes 32, 42 or 48, not "${values.width}".`);
  }
  // The data dir's engine, with its ledger on the store server when one is given.
  const engine = await openEngine(dataDir, store ? { store } : {});
  try {
    const receipts = engine.receipts({ tipPercentages: () => counterTipPercentages(dataDir) });
    const options = { ...(width !== undefined && { width }) };
    if (values.printer === undefined) {
      const { lines } = await receipts.render(Number(values.id), copy, options);
      process.stdout.write(`${lines.join('\n')}\n`);
      return;
    }
    try {
      console.log(await receipts.print(Number(values.id), [copy], { ...options, printer: values.printer }));
    } catch (error) {
      if (error instanceof PrinterError) throw new PrintFailedError(error.message);
      throw error;
    }
  } finally {
    await engine.close();
  }
}

const ROOT = join(import.meta.dirname, '..');
const READER_KINDS = ['hid', 'simulator'] as const;

interface ScreensOptions {
  rendererDir: string;
  reader: (typeof READER_KINDS)[number] | undefined;
}

function screensOptions(values: {
  renderer?: boolean;
  'renderer-dir'?: string;
  reader?: string;
}): ScreensOptions | undefined {
  const reader = values.reader;
  if (reader !== undefined && !(READER_KINDS as readonly string[]).includes(reader)) {
    throw new UsageError(`--reader takes hid or simulator, not "${reader}".`);
  }
  if (!values.renderer && values['renderer-dir'] === undefined) {
    // Swipes are delivered to the cashier screens; without them a reader would have no one to tell.
    if (reader !== undefined)
      throw new UsageError('--reader needs --renderer: swipes go to the cashier screens.');
    return undefined;
  }
  return {
    rendererDir: resolve(values['renderer-dir'] ?? join(ROOT, 'out', 'renderer')),
    reader: reader as ScreensOptions['reader'],
  };
}

async function readerSetup(kind: ScreensOptions['reader']): Promise<ReaderSetup> {
  if (kind === 'simulator') return { kind: 'simulator' };
  if (kind === 'hid') {
    // node-hid loads libudev/libusb; only a serve that asks for the reader pays for it.
    const { nodeHidBackend } = await import('./reader/node-hid-backend');
    return hidReaderSetup(nodeHidBackend);
  }
  return { kind: 'none' };
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * --database and --lane: the store server and this counter's lane in it, given together or not at
 * all; without them, the store server saved in the desktop app's Settings, if any.
 */
function storeServer(
  values: { database?: string; lane?: string },
  dataDir: string,
): StoreServerOptions | undefined {
  // A command line is readable by every user of the computer (ps, /proc): no password on it.
  if (values.database !== undefined && storeServerUrlHasPassword(values.database)) {
    throw new UsageError(
      `--database must not hold the password (${shownStoreServer(values.database)}): every user of this computer can read a command line. ` +
        'Give it in PGPASSWORD, or in a password file (~/.pgpass or PGPASSFILE, readable by you only).',
    );
  }
  try {
    return (
      storeServerOptions(values, { database: '--database', lane: '--lane' }) ?? readStoreServerFile(dataDir)
    );
  } catch (error) {
    if (error instanceof StoreServerSettingError) throw new UsageError(error.message);
    throw error;
  }
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535)
    throw new UsageError(`--port must be 1 to 65535, not "${text}".`);
  return port;
}

function audit(
  dataDir: string,
  limitText: string | undefined,
  store: StoreServerOptions | undefined,
): Promise<void> {
  if (limitText !== undefined && !/^[1-9]\d{0,5}$/.test(limitText))
    throw new UsageError(`--limit must be a whole number from 1 to 999999, not "${limitText}".`);
  const limit = limitText === undefined ? 50 : Number(limitText);
  return withEngine(
    dataDir,
    async (engine) => {
      // On a store, the entries are the store server's; a data dir used before its counter joined
      // the store keeps its earlier ones (keys, settings, staff): both, newest first.
      const entries = store
        ? [
            ...readDataDirAudit(dataDirLayout(dataDir).database, limit),
            ...(await engine.reads.recentAudit(limit)),
          ]
            .sort((a, b) => b.at - a.at)
            .slice(0, limit)
        : await engine.reads.recentAudit(limit);
      if (entries.length === 0) console.log('The audit log is empty.');
      for (const entry of entries) {
        console.log(
          `${formatTimestamp(entry.at)}  ${entry.actor}  ${entry.action}  ${entry.subject}  ${entry.detail}`.trimEnd(),
        );
      }
    },
    store,
  );
}

async function withEngine<T>(
  dataDir: string,
  work: (engine: Engine) => T | Promise<T>,
  store?: StoreServerOptions,
): Promise<T> {
  // The data dir's engine, with its ledger on the store server when one is given.
  const engine = await openEngine(dataDir, store ? { store } : {});
  try {
    return await work(engine);
  } finally {
    await engine.close();
  }
}

async function serve(
  dataDir: string,
  port: number,
  allowedOrigins: string[],
  screens: ScreensOptions | undefined,
  store: StoreServerOptions | undefined,
  /** How `store` was given, when not by the saved setting. */
  storeSetOutside: string | undefined,
): Promise<void> {
  const engine = store ? { store } : undefined;
  let gateway: {
    url: string;
    certificatePem: string;
    recoveredFromUncleanShutdown: boolean;
    ledgerCheck: LedgerCheck;
    close(): Promise<void>;
  };
  let screensUrl: string | undefined;
  let launchPage: string | undefined;
  let customer: { url: string; launchPage: string } | undefined;
  keepEngineHeapSmall();
  if (screens) {
    const running = await startHeadlessScreens({
      dataDir,
      port,
      allowedOrigins,
      rendererDir: screens.rendererDir,
      reader: await readerSetup(screens.reader),
      version: packageVersion(),
      ...(engine && { engine }),
      ...(storeSetOutside !== undefined && { storeSetOutside }),
    });
    gateway = {
      url: running.gateway.url,
      certificatePem: running.gateway.certificatePem,
      recoveredFromUncleanShutdown: running.gateway.recoveredFromUncleanShutdown,
      ledgerCheck: running.gateway.ledgerCheck,
      close: running.close,
    };
    screensUrl = running.screensUrl;
    launchPage = running.launchPage;
    customer = { url: running.customerUrl, launchPage: running.customerLaunchPage };
  } else {
    gateway = await startGateway({
      dataDir,
      port,
      allowedOrigins,
      ...(engine && { engine }),
      tipPercentages: () => counterTipPercentages(dataDir),
    });
  }
  const layout = dataDirLayout(dataDir);
  console.log(`Data dir: ${dataDir}`);
  if (store) console.log(`Ledger: the store server, as lane ${store.lane}`);
  if (gateway.recoveredFromUncleanShutdown) {
    console.log(
      'The last shutdown was not clean (killed or power loss); the ledger passed its integrity check.',
    );
  } else if (gateway.ledgerCheck === 'full') {
    console.log(
      'The ledger was not the file the engine last stopped with (restored, changed by a command while ' +
        'no engine served, or the first start of this version); it passed its full integrity check.',
    );
  }
  console.log(
    `TLS certificate: ${layout.certificate} (SHA-256 ${certificateFingerprint(gateway.certificatePem)})`,
  );
  if (screensUrl) {
    const reader = screens?.reader ?? 'none';
    console.log(`Card reader: ${reader === 'none' ? 'none (key cards in)' : reader}`);
    // Neither line holds a credential: the launch page's ticket is in the file, which only this
    // computer's user of the data dir can read.
    console.log(`Cashier screens: ${screensUrl}`);
    console.log(`To open them in a browser on this computer, open ${pathToFileURL(launchPage ?? '').href}`);
    if (customer) {
      console.log(`Customer screen: ${customer.url}`);
      console.log(
        `To open it in a browser on this computer, open ${pathToFileURL(customer.launchPage).href}, ` +
          'or use Settings > Counter sales > Open the window on the cashier screens',
      );
    }
  }
  const stop = (signal: string) => {
    console.log(`${signal} received; stopping.`);
    gateway.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  // Before the ready line: a supervisor may answer it with a signal at once, and a signal with no
  // handler ends the engine without its clean stop, so the next start checks the whole ledger.
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  console.log(`Tender gateway ready on ${gateway.url}`);
}

function keys(
  dataDir: string,
  action: string | undefined,
  args: string[],
  values: { name?: string; permissions?: string },
  store: StoreServerOptions | undefined,
) {
  return withEngine(
    dataDir,
    async (engine) => {
      switch (action) {
        case 'create': {
          if (!values.name) throw new UsageError('keys create needs --name <name>.');
          const permissions =
            values.permissions === undefined ? [...PERMISSIONS] : parsePermissions(values.permissions);
          const { key, info } = await engine.keys.create(values.name, permissions, COMMAND_LINE);
          console.log(`Created API key ${info.id} "${info.name}" with ${info.permissions.join(', ')}.`);
          console.log('Store it now: it is shown only this once.');
          console.log(key);
          return;
        }
        case 'list': {
          const all = engine.keys.list();
          if (all.length === 0) console.log('No API keys. Create one with: keys create --name <name>');
          for (const key of all) {
            const state = key.revoked ? `revoked ${formatTimestamp(key.revoked)}` : 'active';
            const used = key.lastUsed ? formatTimestamp(key.lastUsed) : 'never';
            console.log(
              `${key.id}  ${key.name}  [${key.permissions.join(', ')}]  created ${formatTimestamp(key.created)}  last used ${used}  ${state}`,
            );
          }
          return;
        }
        case 'revoke': {
          const id = args[0];
          if (!id) throw new UsageError('keys revoke needs the key id (see keys list).');
          const revoked = await engine.keys.revoke(id, COMMAND_LINE);
          if (!revoked) throw new NoSuchKeyError(`No active key with id ${id}. See keys list.`);
          console.log(`Revoked API key ${revoked.id} "${revoked.name}".`);
          return;
        }
        default:
          throw new UsageError('keys takes create, list or revoke.');
      }
    },
    store,
  );
}

/** A PIN never goes on the command line, where shell history and process lists keep it. */
async function readPin(prompt: string): Promise<string> {
  return (await readLine(prompt)).trim();
}

/**
 * A line typed at a terminal, not shown as it is typed: a PIN or a secret must not stay on the screen
 * (or in its scrollback) for whoever looks next. Backspace takes back a character; Ctrl-C cancels.
 * The prompt shows only once the terminal has stopped echoing, so nothing typed at once is shown.
 */
function readUnshown(input: NodeJS.ReadStream, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(text);
    };
    const onData = (chunk: Buffer) => {
      for (const character of chunk.toString('utf8')) {
        if (character === '\r' || character === '\n') return finish();
        if (character === '\u0003') return finish(new UsageError('Cancelled: nothing was changed.'));
        if (character === '\u0004')
          return text === ''
            ? finish(new UsageError('Nothing was read from standard input; nothing was changed.'))
            : finish();
        if (character === '\u007f' || character === '\b') text = Array.from(text).slice(0, -1).join('');
        else text += character;
      }
    };
    input.setRawMode(true);
    process.stderr.write(prompt);
    input.on('data', onData);
    input.resume();
  });
}

/**
 * The first line of standard input, after a prompt when a person types it, and then not shown as it
 * is typed (it is a PIN or a secret). Input that ends before giving anything at all (an empty file, a
 * closed pipe) is a mistake, never an empty value: an empty line is how an empty value is given.
 */
async function readLine(prompt: string): Promise<string> {
  if (process.stdin.isTTY) return readUnshown(process.stdin, prompt);
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  if (text === '')
    throw new UsageError(
      'Nothing was read from standard input; give the value there, ending with a new line.',
    );
  return text.split(/\r?\n/)[0] ?? '';
}

function describeMember(member: StaffMember): string {
  const server = member.serverId === null ? '' : `  server ${member.serverId}`;
  const state = member.retired === null ? '' : `  retired ${formatTimestamp(member.retired)}`;
  return `${member.id}  ${member.name}  ${member.role}${server}${state}`;
}

async function staff(
  dataDir: string,
  action: string | undefined,
  args: string[],
  values: { name?: string; role?: string; server?: string; 'new-pin'?: boolean },
  store: StoreServerOptions | undefined,
): Promise<void> {
  const server = values.server === undefined ? undefined : values.server === 'none' ? null : values.server;
  switch (action) {
    case 'list':
      return withEngine(
        dataDir,
        (engine) => {
          const everyone = engine.staff.list();
          if (everyone.length === 0) {
            console.log(
              'No staff yet. Add the first manager with: staff create --name <name> --role manager',
            );
          }
          for (const member of everyone) console.log(describeMember(member));
        },
        store,
      );
    case 'create': {
      if (!values.name || !values.role)
        throw new UsageError('staff create needs --name <name> and --role cashier|manager.');
      // Before the PIN is asked for: a person need not type one for a request that is refused anyway.
      if (!(STAFF_ROLES as readonly string[]).includes(values.role))
        throw new UsageError(`--role is cashier or manager, not "${values.role}".`);
      const pin = await readPin(`PIN for ${values.name} (4 to 8 digits): `);
      const member = await withEngine(
        dataDir,
        (engine) =>
          engine.staff.create(
            {
              name: values.name ?? '',
              role: values.role ?? '',
              pin,
              ...(server !== undefined && { serverId: server }),
            },
            COMMAND_LINE,
          ),
        store,
      );
      console.log(`Added ${describeMember(member)}.`);
      return;
    }
    case 'change': {
      const who = args[0];
      if (!who) throw new UsageError('staff change needs the id or name of the person (see staff list).');
      const pin = values['new-pin'] ? await readPin(`New PIN for ${who} (4 to 8 digits): `) : undefined;
      const member = await withEngine(
        dataDir,
        (engine) =>
          engine.staff.change(
            who,
            {
              ...(values.name !== undefined && { name: values.name }),
              ...(values.role !== undefined && { role: values.role }),
              ...(server !== undefined && { serverId: server }),
              ...(pin !== undefined && { pin }),
            },
            COMMAND_LINE,
          ),
        store,
      );
      console.log(`Changed: ${describeMember(member)}.`);
      return;
    }
    case 'retire': {
      const who = args[0];
      if (!who) throw new UsageError('staff retire needs the id or name of the person (see staff list).');
      const member = await withEngine(dataDir, (engine) => engine.staff.retire(who, COMMAND_LINE), store);
      console.log(`Retired: ${describeMember(member)}.`);
      return;
    }
    case 'unpause': {
      if (store === undefined && !existsSync(dataDirLayout(dataDir).database))
        throw new NoLedgerError(
          `There is no Tender ledger in ${dataDir}, so no PIN entry to open: check --data-dir.`,
        );
      const { counter, lifted } = await withEngine(
        dataDir,
        async (engine) => {
          const counter = engine.onStoreServer ? engine.lane : THIS_COUNTER;
          return { counter, lifted: await engine.staff.unpause(counter, COMMAND_LINE) };
        },
        store,
      );
      if (lifted.length === 0) console.log(`PIN entry at ${counter} is not paused.`);
      for (const { scope, leftMs, failures } of lifted) {
        console.log(
          `Opened PIN entry for ${scope}: ${waitInWords(leftMs)} of its pause were left, after ${failures} wrong PINs. The next wrong PIN there pauses it again.`,
        );
      }
      return;
    }
    default:
      throw new UsageError('staff takes list, create, change, retire or unpause.');
  }
}

function settings(
  dataDir: string,
  action: string | undefined,
  args: string[],
  store: StoreServerOptions | undefined,
) {
  const [name, given] = args;
  // Every user of this computer can read a command line, and shell history keeps it: a secret is
  // taken only from standard input. An empty word, which reveals nothing, clears it.
  if (
    action === 'set' &&
    name !== undefined &&
    isSecretSetting(name) &&
    given !== undefined &&
    given !== '-' &&
    given !== ''
  )
    throw new UsageError(
      `${name} is a secret, never taken as a word of the command line (other users of this computer can read ` +
        `that, and shell history keeps it); nothing was changed. Give - instead (settings set ${name} -): ` +
        'type it at the prompt, where it is not shown, or pipe it in.',
    );
  return withEngine(
    dataDir,
    async (engine) => {
      if (action === 'get') {
        const all = engine.settings.all();
        const names = args.length ? args : Object.keys(all);
        for (const name of names) {
          if (!Object.hasOwn(all, name))
            throw new UnknownSettingError(
              `Unknown setting "${name}". Known: ${Object.keys(all).join(', ')}.`,
            );
          console.log(`${name}=${engine.settings.display(name as keyof typeof all)}`);
        }
        return;
      }
      if (action === 'set') {
        if (name === undefined || given === undefined)
          throw new UsageError('settings set needs a name and a value.');
        // `-` reads the value from standard input, so that it stays out of shell history and process
        // lists.
        const value = given === '-' ? await readLine(`${name}: `) : given;
        await engine.settings.setFromText(name, value, COMMAND_LINE);
        console.log(`${name}=${engine.settings.display(name as keyof typeof SETTING_DEFINITIONS)}`);
        return;
      }
      throw new UsageError('settings takes get or set.');
    },
    store,
  );
}

export async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      name: { type: 'string' },
      permissions: { type: 'string' },
      role: { type: 'string' },
      server: { type: 'string' },
      'new-pin': { type: 'boolean' },
      'allow-origin': { type: 'string', multiple: true },
      renderer: { type: 'boolean' },
      'renderer-dir': { type: 'string' },
      reader: { type: 'string' },
      to: { type: 'string' },
      limit: { type: 'string' },
      from: { type: 'string' },
      id: { type: 'string' },
      copy: { type: 'string' },
      width: { type: 'string' },
      printer: { type: 'string' },
      database: { type: 'string' },
      lane: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, action, ...rest] = positionals;
  const dataDir = values['data-dir'] ?? defaultDataDir();
  if (values.help || command === undefined || command === 'help') {
    console.log(USAGE);
    return;
  }
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory())
    throw new NoLedgerError(
      `${dataDir} is a file, not a folder: --data-dir names the folder that holds Tender's ledger.`,
    );
  if (
    ['backup', 'restore'].includes(command) &&
    (values.database !== undefined || values.lane !== undefined || storeServer(values, dataDir) !== undefined)
  )
    throw new UsageError(
      `${command} works on the data dir's SQLite ledger; back up the store server's database with pg_dump or base backups (docs/operations.md).`,
    );
  refuseExtraWords(command, action, rest);
  const store = storeServer(values, dataDir);
  if (onlyReads(command, action) && store === undefined && notADataDir(dataDir))
    throw new NoLedgerError(
      `There is no Tender ledger in ${dataDir}, so there is nothing to show: check --data-dir. ` +
        '(serve makes one, as do the commands that change something.)',
    );
  switch (command) {
    case 'serve':
      return serve(
        dataDir,
        parsePort(values.port),
        (values['allow-origin'] ?? []).map(parseOrigin),
        screensOptions(values),
        store,
        values.database === undefined ? undefined : '--database and --lane',
      );
    case 'keys':
      return keys(dataDir, action, rest, values, store);
    case 'settings':
      return settings(dataDir, action, action === undefined ? [] : rest, store);
    case 'staff':
      return staff(dataDir, action, rest, values, store);
    case 'audit':
      return audit(dataDir, values.limit, store);
    case 'receipt':
      return receipt(dataDir, values, store);
    case 'backup': {
      if (!values.to) throw new UsageError('backup needs --to <file>.');
      const { problems } = await backupLedger(dataDir, resolve(values.to));
      if (problems.length > 0)
        throw new BackupError(`The backup failed its integrity check: ${problems.join('; ')}`);
      console.log(
        `Backed up the ledger of ${dataDir} to ${resolve(values.to)}; it passed its integrity check.`,
      );
      return;
    }
    case 'restore': {
      if (!values.from) throw new UsageError('restore needs --from <file>.');
      const { keptAs } = await restoreLedger(dataDir, resolve(values.from));
      console.log(`Restored ${resolve(values.from)} into ${dataDir}.`);
      if (keptAs) console.log(`The ledger it replaced is kept as ${keptAs}.`);
      return;
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ScreensNotBuiltError) {
    console.error(`tender: ${error.message}`);
    process.exit(1);
  }
  if (
    error instanceof ReceiptNotFoundError ||
    error instanceof NotATabError ||
    error instanceof NoLedgerError ||
    error instanceof PrintFailedError ||
    error instanceof NoSuchKeyError
  ) {
    console.error(`tender: ${error.message}`);
    process.exit(1);
  }
  if (
    error instanceof BackupError ||
    error instanceof DataDirInUseError ||
    error instanceof LaneInUseError ||
    error instanceof LedgerDamagedError ||
    error instanceof InvalidStaffRequestError
  ) {
    console.error(`tender: ${error.message}`);
    process.exit(1);
  }
  const known =
    error instanceof UsageError ||
    error instanceof InvalidKeyRequestError ||
    error instanceof UnknownSettingError;
  const argumentError = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  if (known || argumentError) {
    console.error(`tender: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(`tender: ${(error as Error).message}`);
  process.exit(1);
});
