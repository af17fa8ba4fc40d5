/**
 * Refund and void: find the transaction (the latest ones, or by card, amount, invoice, code or
 * dates), see what it was and what was refunded already, then void it while its batch is open or
 * refund it once settled. A card can also be refunded with no original sale, behind a confirmation.
 */
import { useEffect, useState } from 'react';
import { transactionOf } from '../shell/routes';
import type { TransactionListItem } from '../../../shared/api/schemas';
import { formatMoney } from '../../../shared/money';
import { useScreenActive } from '../ui/screen-active';
import { useTerminal } from '../terminal/terminal-context';
import { startOfDay } from '../transactions/queries';
import { cardLabel, kindOf, moneyOf, statusOf, timeLabel } from '../transactions/present';
import { Spinner } from '../ui/icons';
import { MoneyInput } from '../ui/MoneyInput';
import { LoadProblem } from '../ui/LoadProblem';
import { useLoad } from '../ui/use-load';
import { TransactionDetails } from './TransactionDetails';
import { UnmatchedRefund } from './UnmatchedRefund';
import { DateRangeFields } from '../ui/DateRangeFields';
import { DigitsInput } from '../ui/DigitsInput';

interface Search {
  lastFour: string;
  amountCents: number;
  invoice: string;
  authorizationCode: string;
  from: string;
  to: string;
}

const NO_SEARCH: Search = {
  lastFour: '',
  amountCents: 0,
  invoice: '',
  authorizationCode: '',
  from: '',
  to: '',
};
const SHOWN = 25;

function queryOf(search: Search) {
  const start = startOfDay(search.from);
  const end = startOfDay(search.to, 1);
  return {
    result: 'approved',
    page_size: SHOWN,
    order_by: 'id',
    descending: true,
    ...(search.lastFour && { last_four: search.lastFour }),
    ...(search.amountCents > 0 && { amount: formatMoney(search.amountCents) }),
    ...(search.invoice.trim() && { invoice: search.invoice.trim() }),
    ...(search.authorizationCode.trim() && {
      authorization_code: search.authorizationCode.trim().toUpperCase(),
    }),
    ...(start && { start_date: start }),
    ...(end && { end_date: end }),
  } as const;
}

function searchProblem(search: Search): string | undefined {
  if (search.lastFour !== '' && !/^\d{4}$/.test(search.lastFour))
    return 'The last four digits are four digits.';
  if (search.from && search.to && search.from > search.to) return 'The first day comes after the last day.';
  return undefined;
}

type Side = { kind: 'none' } | { kind: 'transaction'; id: string } | { kind: 'unmatched' };

export function RefundScreen() {
  const { client } = useTerminal();
  const active = useScreenActive();
  const [draft, setDraft] = useState<Search>(NO_SEARCH);
  const [search, setSearch] = useState<Search>(NO_SEARCH);
  const [problem, setProblem] = useState<string>();
  const [refresh, setRefresh] = useState(0);
  const [side, setSide] = useState<Side>(() => {
    const id = transactionOf(window.location.hash);
    return id ? { kind: 'transaction', id } : { kind: 'none' };
  });
  // History links to a transaction's details here (#refunds/42).
  useEffect(() => {
    const follow = () => {
      const id = transactionOf(window.location.hash);
      if (id) setSide({ kind: 'transaction', id });
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  // Voids show on the transaction they voided; they cannot themselves be voided or refunded.
  const results = useLoad(
    async () => (await client.listTransactions(queryOf(search))).filter((item) => item.type !== 'Void'),
    [client, search, refresh, active],
    active,
  );
  const searching = JSON.stringify(search) !== JSON.stringify(NO_SEARCH);
  const set = (change: Partial<Search>) => {
    setDraft((previous) => ({ ...previous, ...change }));
    setProblem(undefined);
  };

  return (
    <div className="screen screen-split refunds-screen">
      <section className="panel" aria-labelledby="refunds-title">
        <header className="panel-head">
          <div>
            <h1 id="refunds-title">Refund &amp; void</h1>
            <p className="panel-subtitle">Find the transaction, or refund a card with no original sale.</p>
          </div>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setSide({ kind: 'unmatched' })}
          >
            Refund without a sale
          </button>
        </header>

        <form
          className="search-form"
          aria-label="Find a transaction"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const wrong = searchProblem(draft);
            setProblem(wrong);
            if (!wrong) {
              setSearch(draft);
              setRefresh((count) => count + 1);
            }
          }}
        >
          <label className="field">
            <span className="field-label">Last four</span>
            <DigitsInput length={4} value={draft.lastFour} onDigits={(lastFour) => set({ lastFour })} />
          </label>
          <label className="field">
            <span className="field-label">Amount</span>
            <MoneyInput
              cents={draft.amountCents}
              onChange={(amountCents) => set({ amountCents })}
              emptyWhenZero
            />
          </label>
          <label className="field">
            <span className="field-label">Invoice</span>
            <input
              className="input"
              autoComplete="off"
              maxLength={64}
              value={draft.invoice}
              onChange={(event) => set({ invoice: event.target.value })}
            />
          </label>
          <label className="field">
            <span className="field-label">Authorization code</span>
            <input
              className="input input-code"
              autoComplete="off"
              maxLength={8}
              value={draft.authorizationCode}
              onChange={(event) =>
                set({ authorizationCode: event.target.value.toUpperCase().replace(/[^0-9A-Z]/g, '') })
              }
            />
          </label>
          <DateRangeFields range={draft} onChange={set} />
          <div className="search-actions">
            <button type="submit" className="button button-primary">
              Find
            </button>
            {searching && (
              <button
                type="button"
                className="button button-quiet"
                onClick={() => {
                  setDraft(NO_SEARCH);
                  setSearch(NO_SEARCH);
                  setProblem(undefined);
                }}
              >
                Show the latest
              </button>
            )}
          </div>
          {problem && (
            <p className="notice notice-bad search-problem" role="alert">
              {problem}
            </p>
          )}
        </form>

        <div className="results-head">
          <h2>{searching ? 'Matching transactions' : 'Latest approved transactions'}</h2>
          {results.loading && <Spinner className="spinner inline-spinner" />}
        </div>
        <LoadProblem loaded={results} />
        {results.data && results.data.length === 0 && (
          <div className="empty">
            <p className="empty-title">Nothing matches</p>
            <p>Check the last four digits and the amount, or widen the dates.</p>
          </div>
        )}
        {results.data && results.data.length > 0 && (
          <ul className="result-rows" aria-label="Transactions">
            {results.data.map((item) => (
              <ResultRow
                key={item.id}
                item={item}
                selected={side.kind === 'transaction' && side.id === item.id}
                onOpen={() => setSide({ kind: 'transaction', id: item.id })}
              />
            ))}
          </ul>
        )}
      </section>

      <aside className="panel side-panel" aria-label="Transaction">
        {side.kind === 'transaction' ? (
          <TransactionDetails
            key={side.id}
            id={side.id}
            onChanged={() => setRefresh((count) => count + 1)}
            onClose={() => setSide({ kind: 'none' })}
          />
        ) : side.kind === 'unmatched' ? (
          <UnmatchedRefund
            onClose={(refunded) => {
              setSide({ kind: 'none' });
              if (refunded) setRefresh((count) => count + 1);
            }}
          />
        ) : (
          <div className="side-empty">
            <h2>Void or refund</h2>
            <p>Choose a transaction to see what it was and what was refunded already.</p>
            <p>
              While its batch is open, a sale is <strong>voided</strong>: it is cancelled in full. Once the
              batch is closed, it is <strong>refunded</strong>, in full or in part.
            </p>
          </div>
        )}
      </aside>
    </div>
  );
}

function ResultRow({
  item,
  selected,
  onOpen,
}: {
  item: TransactionListItem;
  selected: boolean;
  onOpen: () => void;
}) {
  const status = statusOf(item);
  return (
    <li className={selected ? 'result-row result-row-selected' : 'result-row'}>
      <button
        type="button"
        className="result-row-main"
        onClick={onOpen}
        aria-current={selected ? 'true' : undefined}
        data-testid={`transaction-${item.id}`}
      >
        <span className="result-row-what">
          <span className="cell-main">
            {kindOf(item)} #{item.id}
          </span>
          <span className="cell-sub">{timeLabel(item.created)}</span>
        </span>
        <span className="result-row-card">{cardLabel(item)}</span>
        <span className={`pill pill-${status.tone}`}>{status.label}</span>
        <span className="result-row-amount">{moneyOf(item.amount)}</span>
      </button>
    </li>
  );
}
