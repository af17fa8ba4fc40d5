/**
 * Every transaction, a page at a time: filters (type, result, dates, last four, invoice, server,
 * cashier), sorting by column, and the whole filtered list as a CSV file. Cards are masked by the engine.
 */
import { useState } from 'react';
import type { TransactionListItem, TransactionOrderField } from '../../../shared/api/schemas';
import { TYPE_LABELS, RESULTS } from '../../../shared/api/transaction-types';
import { useScreenActive } from '../ui/screen-active';
import { useTerminal } from '../terminal/terminal-context';
import { listEvery } from '../transactions/queries';
import { cardLabel, centsOf, kindOf, moneyOf, statusOf, timeLabel } from '../transactions/present';
import { displayMoney } from '../../../shared/money';
import { ArrowLeftIcon, ArrowRightIcon, Spinner } from '../ui/icons';
import { LoadProblem } from '../ui/LoadProblem';
import { problemText, useLoad } from '../ui/use-load';
import { transactionsCsv } from './csv';
import { readHistoryPage } from './history-pages';
import {
  filterProblem,
  historyQuery,
  NEWEST_FIRST,
  NO_FILTERS,
  PAGE_SIZE,
  typeFilter,
  type HistoryFilters,
  type HistorySort,
} from './history-query';
import { DateRangeFields } from '../ui/DateRangeFields';
import { DigitsInput } from '../ui/DigitsInput';
import { ProblemNotice } from '../ui/ProblemNotice';
import { BusyButton } from '../ui/BusyButton';
import { ReprintButton } from '../receipts/ReceiptDialog';
import { CashierFilter } from '../staff/CashierFilter';
import { transactionHref } from '../shell/routes';
import { hasCheck } from '../refunds/counter-sale';

/**
 * Which windows show a column: every one, or those at least as wide as a large (1440 px), a medium
 * (1100 px) or a small (900 px) counter screen. The table fits its frame at every size, so the
 * amount is never scrolled out of view; what a narrow window leaves out is in the details and the CSV.
 */
type ColumnShown = 'always' | 'large' | 'medium' | 'small';

const COLUMNS: {
  field: TransactionOrderField | undefined;
  label: string;
  numeric?: boolean;
  shown: ColumnShown;
}[] = [
  { field: 'id', label: '#', shown: 'always' },
  { field: 'created', label: 'Time', shown: 'always' },
  { field: 'type', label: 'Type', shown: 'always' },
  { field: 'result', label: 'Result', shown: 'always' },
  { field: 'last_four', label: 'Card', shown: 'always' },
  { field: 'authorization_code', label: 'Auth code', shown: 'large' },
  { field: 'invoice', label: 'Invoice', shown: 'medium' },
  { field: 'server_id', label: 'Server', shown: 'medium' },
  { field: undefined, label: 'Cashier', shown: 'small' },
  { field: 'amount', label: 'Amount', numeric: true, shown: 'always' },
];

function columnClass(shown: ColumnShown, ...others: (string | false | undefined)[]): string | undefined {
  const names = [shown === 'always' ? undefined : `column-${shown}`, ...others].filter(Boolean);
  return names.length > 0 ? names.join(' ') : undefined;
}

const shownOf = (label: string): ColumnShown =>
  COLUMNS.find((column) => column.label === label)?.shown ?? 'always';

export function HistoryScreen() {
  const { client } = useTerminal();
  const active = useScreenActive();
  const [draft, setDraft] = useState<HistoryFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<HistoryFilters>(NO_FILTERS);
  const [sort, setSort] = useState<HistorySort>(NEWEST_FIRST);
  const [page, setPage] = useState(1);
  const [problem, setProblem] = useState<string>();
  const [exporting, setExporting] = useState<'idle' | 'busy' | { problem: string } | { rows: number }>(
    'idle',
  );

  const rows = useLoad(
    async () => {
      const list = (query: Parameters<typeof client.listTransactions>[0]) => client.listTransactions(query);
      return readHistoryPage(
        list,
        historyQuery(filters, sort),
        page,
        PAGE_SIZE,
        typeFilter(filters.type).keep,
      );
    },
    [client, filters, sort, page, active],
    active,
  );

  const apply = (next: HistoryFilters) => {
    const wrong = filterProblem(next);
    setProblem(wrong);
    if (wrong) return;
    setFilters(next);
    setPage(1);
  };
  const sortBy = (field: TransactionOrderField) => {
    setSort((previous) =>
      previous.field === field
        ? { field, descending: !previous.descending }
        : { field, descending: field === 'id' || field === 'created' || field === 'amount' },
    );
    setPage(1);
  };
  const set = (change: Partial<HistoryFilters>) => setDraft((previous) => ({ ...previous, ...change }));

  const exportCsv = async () => {
    if (exporting === 'busy') return;
    setExporting('busy');
    try {
      const { items: listed, complete } = await listEvery(client, historyQuery(filters, sort));
      const keep = typeFilter(filters.type).keep;
      const items = keep ? listed.filter(keep) : listed;
      download(transactionsCsv(items), `tender-transactions-${today()}.csv`);
      setExporting(
        complete
          ? { rows: items.length }
          : { problem: `Only the first ${items.length} rows were exported: narrow the dates.` },
      );
    } catch (error) {
      setExporting({ problem: `The export failed: ${problemText(error)}` });
    }
  };

  const items = rows.data?.items ?? [];
  const firstRow = (page - 1) * PAGE_SIZE + 1;

  return (
    <div className="screen history-screen">
      <section className="panel" aria-labelledby="history-title">
        <header className="panel-head">
          <div>
            <h1 id="history-title">History</h1>
            <p className="panel-subtitle">
              Every transaction on this terminal. Cards show their last four digits only.
            </p>
          </div>
          <div className="panel-actions">
            {typeof exporting === 'object' && 'rows' in exporting && (
              <span className="muted" role="status">
                Exported {exporting.rows} {exporting.rows === 1 ? 'row' : 'rows'}
              </span>
            )}
            <BusyButton
              type="button"
              className="button button-secondary"
              onClick={() => void exportCsv()}
              busy={exporting === 'busy'}
            >
              Export CSV
            </BusyButton>
          </div>
        </header>
        <ProblemNotice
          problem={typeof exporting === 'object' && 'problem' in exporting ? exporting.problem : undefined}
        />

        <form
          className="filter-bar"
          aria-label="Filters"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            apply(draft);
          }}
        >
          <label className="field">
            <span className="field-label">Type</span>
            <select
              className="input"
              value={draft.type}
              onChange={(event) => set({ type: event.target.value })}
            >
              <option value="">All types</option>
              {Object.values(TYPE_LABELS).map((label) => (
                <option key={label} value={label}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Result</span>
            <select
              className="input"
              value={draft.result}
              onChange={(event) => set({ result: event.target.value })}
            >
              <option value="">All results</option>
              {RESULTS.map((result) => (
                <option key={result} value={result}>
                  {result}
                </option>
              ))}
            </select>
          </label>
          <DateRangeFields range={draft} onChange={set} />
          <label className="field field-narrow">
            <span className="field-label">Last four</span>
            <DigitsInput length={4} value={draft.lastFour} onDigits={(lastFour) => set({ lastFour })} />
          </label>
          <label className="field">
            <span className="field-label">Invoice</span>
            <input
              className="input"
              maxLength={64}
              autoComplete="off"
              value={draft.invoice}
              onChange={(event) => set({ invoice: event.target.value })}
            />
          </label>
          <label className="field field-narrow">
            <span className="field-label">Server</span>
            <DigitsInput length={2} value={draft.server} onDigits={(server) => set({ server })} />
          </label>
          <CashierFilter value={draft.cashier} onChange={(cashier) => set({ cashier })} />
          <div className="filter-actions">
            <button type="submit" className="button button-primary">
              Apply
            </button>
            <button
              type="button"
              className="button button-quiet"
              onClick={() => {
                setDraft(NO_FILTERS);
                apply(NO_FILTERS);
              }}
            >
              Reset
            </button>
          </div>
        </form>
        <ProblemNotice problem={problem} />
        <LoadProblem loaded={rows} />

        <div className="table-wrap">
          <table className="table history-table" aria-describedby="history-range" aria-busy={rows.loading}>
            <thead>
              <tr>
                {COLUMNS.map((column) => {
                  const sorted = column.field === sort.field;
                  return (
                    <th
                      key={column.label}
                      scope="col"
                      className={columnClass(column.shown, column.numeric && 'numeric')}
                      aria-sort={sorted ? (sort.descending ? 'descending' : 'ascending') : undefined}
                    >
                      {column.field ? (
                        <button
                          type="button"
                          className="sort-button"
                          onClick={() => column.field && sortBy(column.field)}
                        >
                          {column.label}
                          <span className="sort-mark" aria-hidden="true">
                            {sorted ? (sort.descending ? '▼' : '▲') : ''}
                          </span>
                        </button>
                      ) : (
                        column.label
                      )}
                    </th>
                  );
                })}
                <th scope="col" className="receipt-cell">
                  Receipt
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <HistoryRow key={item.id} item={item} />
              ))}
            </tbody>
          </table>
          {rows.data && items.length === 0 && (
            <div className="empty">
              <p className="empty-title">{page > 1 ? 'No more transactions' : 'No transactions match'}</p>
              <p>Change or reset the filters.</p>
            </div>
          )}
        </div>

        <footer className="pager">
          <p id="history-range" className="muted" aria-live="polite">
            {items.length > 0
              ? `Transactions ${firstRow}–${firstRow + items.length - 1}`
              : rows.loading
                ? 'Loading…'
                : ''}
            {rows.loading && items.length > 0 && <Spinner className="spinner inline-spinner" />}
          </p>
          <div className="pager-buttons">
            <button
              type="button"
              className="button button-secondary"
              disabled={page === 1 || rows.loading}
              onClick={() => setPage((current) => Math.max(1, current - 1))}
            >
              <ArrowLeftIcon className="button-icon" />
              Newer
            </button>
            <span className="pager-page">Page {page}</span>
            <button
              type="button"
              className="button button-secondary"
              disabled={!rows.data?.more || rows.loading}
              onClick={() => setPage((current) => current + 1)}
            >
              Older
              <ArrowRightIcon className="button-icon" />
            </button>
          </div>
        </footer>
      </section>
    </div>
  );
}

function HistoryRow({ item }: { item: TransactionListItem }) {
  const status = statusOf(item);
  return (
    <tr data-testid={`history-${item.id}`}>
      <td className="mono">
        <a className="details-link" href={transactionHref(item.id)} aria-label={`Details of #${item.id}`}>
          {item.id}
        </a>
      </td>
      <td className="history-time">{timeLabel(item.created)}</td>
      <td>{kindOf(item)}</td>
      <td>
        <span className={`pill pill-${status.tone}`}>{status.label}</span>
      </td>
      <td className="history-card">
        <CardName label={cardLabel(item)} />
      </td>
      <td className={columnClass(shownOf('Auth code'), 'mono')}>{item.authorization_code || '—'}</td>
      <td className={columnClass(shownOf('Invoice'), 'truncate')}>{item.invoice || '—'}</td>
      <td className={columnClass(shownOf('Server'))}>{item.server_id || '—'}</td>
      <td className={columnClass(shownOf('Cashier'), 'truncate')}>{item.cashier || '—'}</td>
      <td className="numeric strong">
        {/* Money going back to the card reads as negative, as on the end-of-day report. */}
        {item.type === 'Refund' ? displayMoney(-centsOf(item.amount)) : moneyOf(item.amount)}
      </td>
      <td className="receipt-cell">
        <ReprintButton id={Number(item.id)} isTab={hasCheck(item)} />
      </td>
    </tr>
  );
}

/** "Visa •••• 1111", which a narrow window breaks after the brand, never inside •••• 1111. */
function CardName({ label }: { label: string }) {
  const [brand, digits] = label.split(' •••• ');
  if (digits === undefined) return label;
  return (
    <>
      {brand} <span className="nowrap">•••• {digits}</span>
    </>
  );
}

function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** Hands the text to the browser (or Electron) as a file download. */
function download(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it starts; the next task is late enough to let it go.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
