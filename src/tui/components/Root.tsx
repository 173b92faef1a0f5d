// Loading, then the app: shows the progress of a load task, and the TUI as soon as it is done.
import { useApp, useInput } from 'ink';
import { useEffect, useState } from 'react';
import type { HeaderInfo } from '../format.js';
import type { TuiModel } from '../view-model.js';
import type { ReplayStatus } from '../replay-status.js';
import { ColorContext } from '../theme.js';
import { App, useTerminalSize, type Size } from './App.js';
import { Loading, type LoadPhase } from './Loading.js';

export interface Ready {
  model: TuiModel;
  header: HeaderInfo;
  /** The replay started once the timeline was loaded (the replay tab). */
  replay?: Promise<ReplayStatus>;
}

/** A load running outside React: its phase now, its progress, its result (null: nothing to show). */
export interface LoadTask {
  phase: LoadPhase;
  onPhase(fn: (p: LoadPhase) => void): () => void;
  promise: Promise<Ready | null>;
  abort(): void;
}

interface RootProps {
  task: LoadTask;
  color: boolean;
  size?: Size;
}

const PROGRESS_MS = 100;

export function Root({ task, color, size }: RootProps) {
  const { exit } = useApp();
  const term = useTerminalSize(size);
  const [phase, setPhase] = useState(task.phase);
  const [ready, setReady] = useState<Ready | null>(null);
  useEffect(() => {
    let last = 0;
    const off = task.onPhase((p) => {
      const now = Date.now();
      if (now - last < PROGRESS_MS) return;
      last = now;
      setPhase(p);
    });
    task.promise.then(
      (r) => (r ? setReady(r) : exit()),
      (err: unknown) => exit(err instanceof Error ? err : new Error(String(err))),
    );
    return off;
  }, [task, exit]);
  useInput(
    (input, key) => {
      if (input === 'q' || (key.ctrl && input === 'c')) {
        task.abort();
        exit();
      }
    },
    { isActive: ready === null },
  );
  if (ready) return <App model={ready.model} header={ready.header} color={color} size={size} replay={ready.replay} />;
  return (
    <ColorContext.Provider value={color}>
      <Loading phase={phase} width={term.columns} height={Math.max(1, term.rows - 1)} />
    </ColorContext.Provider>
  );
}
