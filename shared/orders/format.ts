import type { Order, UnitRef } from './types.ts';

/** Canonical notation of an order: `A par - bur`, `F nth C A lon - bel`, `A sag Z`, `Build F car`. */
export function formatOrder(order: Order): string {
  switch (order.kind) {
    case 'hold':
      return `${unit(order.unit)} H`;
    case 'move':
      return `${unit(order.unit)} - ${order.to}${order.viaConvoy ? ' via convoy' : ''}`;
    case 'support':
      return order.to === undefined ? `${unit(order.unit)} S ${unit(order.supported)}` : `${unit(order.unit)} S ${unit(order.supported)} - ${order.to}`;
    case 'convoy':
      return `${unit(order.unit)} C ${unit({ type: 'army', at: order.army.at })} - ${order.to}`;
    case 'destroy':
      return `${unit(order.unit)} Z`;
    case 'rebuild':
      return `${unit(order.unit)} R`;
    case 'retreat':
      return `${unit(order.unit)} - ${order.to}`;
    case 'disband':
      return `${unit(order.unit)} disband`;
    case 'build':
      return order.unitType ? `Build ${order.unitType === 'fleet' ? 'F' : 'A'} ${order.at}` : `Build ${order.at}`;
    case 'remove':
      return `Remove ${unit(order.unit)}`;
    case 'waive':
      return 'Waive';
  }
}

function unit(ref: UnitRef): string {
  return ref.type ? `${ref.type === 'army' ? 'A' : 'F'} ${ref.at}` : ref.at;
}
