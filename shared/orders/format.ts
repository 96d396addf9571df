import type { Order, UnitRef } from './types.ts';

/**
 * Canonical notation of an order: `A par - bur`, `F nth C A lon - bel`, `A sag Z`, `Build F car`.
 * Every order of every call is written out, so the strings are joined with `+` from the parts at hand
 * (a template per part cost V8 an intermediate string each, and the convoyed army an object).
 */
export function formatOrder(order: Order): string {
  switch (order.kind) {
    case 'hold':
      return unit(order.unit) + ' H';
    case 'move':
      return order.viaConvoy ? unit(order.unit) + ' - ' + order.to + ' via convoy' : unit(order.unit) + ' - ' + order.to;
    case 'support':
      return order.to === undefined ? unit(order.unit) + ' S ' + unit(order.supported) : unit(order.unit) + ' S ' + unit(order.supported) + ' - ' + order.to;
    case 'convoy':
      // The convoyed unit is written as an army, whatever the order said.
      return unit(order.unit) + ' C A ' + order.army.at + ' - ' + order.to;
    case 'destroy':
      return unit(order.unit) + ' Z';
    case 'rebuild':
      return unit(order.unit) + ' R';
    case 'retreat':
      return unit(order.unit) + ' - ' + order.to;
    case 'disband':
      return unit(order.unit) + ' disband';
    case 'build':
      return order.unitType ? (order.unitType === 'fleet' ? 'Build F ' : 'Build A ') + order.at : 'Build ' + order.at;
    case 'remove':
      return 'Remove ' + unit(order.unit);
    case 'waive':
      return 'Waive';
  }
}

function unit(ref: UnitRef): string {
  return ref.type ? (ref.type === 'army' ? 'A ' : 'F ') + ref.at : ref.at;
}
