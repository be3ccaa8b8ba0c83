import { useNodesInitialized, useReactFlow, useStore } from '@xyflow/react';
import { useEffect } from 'react';
import { openingView } from './layout.js';

/**
 * Opens a chain graph where it can be read (layout.ts `openingView`): fitted whole when that keeps
 * the labels readable, else at the chain's start, panned to see the rest. Again when nodes come or
 * go (`refit`: their ids), so a node added at the end is placed in view too; not when a node only
 * changes its state, which would throw away where the person panned.
 */
export function ReadableFit({ padding, refit }: { padding: number; refit: string }) {
  const flow = useReactFlow();
  const measured = useNodesInitialized();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  useEffect(() => {
    if (!measured || width === 0 || height === 0) return;
    void flow.setViewport(openingView(flow.getNodesBounds(flow.getNodes()), width, height, padding));
  }, [flow, measured, width, height, padding, refit]);
  return null;
}
