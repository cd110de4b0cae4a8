// A wrong harness through the kit, for the helper's failing-case test: it
// keeps one item more than maxItems once the budget is exceeded.
import { serve } from 'conform-adapter';

await serve({
  implementation: { name: 'wrong-retain', version: '0' },
  ops: {
    'retain.items': ({ strategy, items }) => {
      const max = strategy.maxItems + (items.length > strategy.maxItems ? 1 : 0);
      const kept = items.slice(0, max);
      const dropped = items.length - kept.length;
      return {
        items: kept,
        truncated: dropped > 0,
        seen: items.length,
        kept: kept.length,
        omitted: dropped > 0 ? { kind: 'exact', count: dropped } : { kind: 'none' },
        pushes: items.map((_, i) => ({ kept: i < max, truncated: i >= max })),
      };
    },
  },
});
