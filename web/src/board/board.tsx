import { Peek } from '../peek/peek.js';
import { Wizard } from '../wizard/wizard.js';
import { BoardFilters } from './board-filters.js';
import { BoardList } from './board-list.js';
import { BulkBar } from './bulk.js';
import { useBoard } from './use-board.js';

/** The board (`/`) and the archived list (`/archived`): the filters, the bulk bar, the list, the peek. */
export function Board({ archived = false }: { archived?: boolean }) {
  const b = useBoard(archived);
  const f = b.filters;
  if (b.wizard) return <Wizard repos={b.wizard} onSkip={b.skipWizard} />;
  return (
    <section className="page board" aria-label={archived ? 'Archived items' : 'Board'}>
      <header className="board-head">
        <h1>
          {archived ? 'Archived' : 'Board'}
          {!archived && b.needing > 0 && <span className="count-needs">{b.needing} NEED YOU</span>}
        </h1>
        <BoardFilters f={f} defaultGroup={b.defaultGroup} chains={b.chains} repos={b.repos} />
      </header>
      <BulkBar ids={[...b.selected]} archived={archived} onDone={b.clearSelection} />
      {b.items.isError && <p role="alert">The board could not load the items: {b.items.error.message}</p>}
      {b.items.isPending && <p className="muted">Loading…</p>}
      <div className={`board-body${f.peek ? ' with-peek' : ''}`}>
        <BoardList
          entries={b.entries}
          now={b.now}
          selected={b.selected}
          chainNodes={b.chainNodes}
          onOpen={b.open}
          onAction={(i, a) => void b.act(i, a)}
          onToggle={b.toggle}
          onShowAllDone={() => f.set('done', 'all')}
          onClearSelection={b.clearSelection}
        />
        {f.peek && <Peek key={f.peek} id={f.peek} onClose={() => f.set('peek', '')} />}
      </div>
    </section>
  );
}
