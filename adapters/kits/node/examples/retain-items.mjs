// A complete conform adapter: a head item retainer, served through the kit.
// Run it: conform run --op retain.items --adapter 'node <this file>'
import { serve } from 'conform-adapter';

/** Keeps the first maxItems items of a stream (the harness under test). @param {{strategy: {maxItems: number}, items: unknown[]}} input */
function retainItems({ strategy, items }) {
  const max = strategy?.maxItems;
  if (!Number.isInteger(max) || max < 0) throw new Error('maxItems must be a non-negative integer');
  const kept = items.slice(0, max);
  const dropped = items.length - kept.length;
  return {
    items: kept,
    truncated: dropped > 0,
    seen: items.length,
    kept: kept.length,
    omitted: dropped > 0 ? { kind: 'exact', count: dropped } : { kind: 'none' },
    pushes: items.map((_item, i) => ({ kept: i < max, truncated: i >= max })),
  };
}

await serve({ implementation: { name: 'retain-items-example', version: '1.0.0', language: 'javascript' }, ops: { 'retain.items': retainItems } });
