/**
 * The order-submission answer's serializer (server/fast-serializer.ts): its unions told apart by their
 * discriminator write exactly what fast-json-stringify wrote with the whole-branch checks, for every order
 * kind and for refused verdicts, and still write nothing the schema does not declare.
 */
import fastJson from 'fast-json-stringify';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { SubmitOrdersResponseSchema, type CheckedOrder } from '../../shared/api/play.ts';
import type { Order } from '../../shared/index.ts';
import { branchesByDiscriminator, compiledSuccessSerializer } from '../../server/fast-serializer.ts';

const serialize = compiledSuccessSerializer({ schema: SubmitOrdersResponseSchema, method: 'PUT', url: '/orders', httpStatus: '200' });
const jsonSchema = z.toJSONSchema(SubmitOrdersResponseSchema, { io: 'output', target: 'draft-7' });
/** fast-json-stringify on the schema as zod gives it: each union's branches checked whole. */
const byWholeBranches = fastJson(jsonSchema as Parameters<typeof fastJson>[0]);

/** One order of every kind the schema has. */
const orders: Order[] = [
  { kind: 'hold', unit: { type: 'army', at: 'Mac' } },
  { kind: 'move', unit: { type: 'army', at: 'Mac' }, to: 'Thr', viaConvoy: true },
  { kind: 'support', unit: { type: 'fleet', at: 'Ath' }, supported: { type: 'army', at: 'Mac' }, to: 'Thr' },
  { kind: 'support', unit: { at: 'Ath' }, supported: { at: 'Mac' } },
  { kind: 'convoy', unit: { type: 'fleet', at: 'Aeg' }, army: { type: 'army', at: 'Ath' }, to: 'Ion' },
  { kind: 'destroy', unit: { type: 'army', at: 'Bab' } },
  { kind: 'rebuild', unit: { type: 'army', at: 'Bab' } },
  { kind: 'retreat', unit: { type: 'fleet', at: 'Aeg' }, to: 'Spa/sc' },
  { kind: 'disband', unit: { type: 'fleet', at: 'Aeg' } },
  { kind: 'build', unitType: 'fleet', at: 'Ath' },
  { kind: 'build', at: 'Ath' },
  { kind: 'remove', unit: { type: 'army', at: 'Pel' } },
  { kind: 'waive' },
];

function answer(checked: CheckedOrder[]) {
  const accepted = checked.filter((verdict) => verdict.accepted).map(({ accepted: _accepted, ...order }) => order);
  return {
    submission: {
      id: '0c4f5b0e-4c4b-4f7a-9a55-8d2f7a1b2c3d',
      phaseIndex: 3,
      power: 'Macedon',
      text: accepted.map((order) => order.text).join('\n'),
      orders: accepted,
      ready: true,
      byGameMaster: false,
      submittedAt: '2026-11-27T19:30:00.000Z',
    },
    checked,
    phaseProcessed: false,
  };
}

const verdicts: CheckedOrder[] = [
  ...orders.map((order, i): CheckedOrder => ({ accepted: true, input: `order ${i}`, text: `text ${i}`, order, ...(i % 2 ? { unit: 'Mac' } : {}) })),
  { accepted: false, input: 'A Xyz H', reason: 'no province "Xyz"' },
];

describe('the order-submission answer, written by the compiled serializer', () => {
  test('every order kind, accepted and refused verdicts: the same text as with whole-branch checks, and the same value', () => {
    const body = answer(verdicts);
    const written = serialize(body);
    expect(written).toBe(byWholeBranches(body));
    expect(JSON.parse(written)).toEqual(body);
  });

  test('a union is written by the branch its discriminator names, with only that branch’s properties', () => {
    const body = answer([{ accepted: false, input: 'F Ath - Aeg', reason: 'refused' }]);
    // A refused verdict given an accepted one's fields by mistake: the refused branch writes none of them.
    const mixed = { ...body, checked: [{ ...body.checked[0], text: 'F Ath - Aeg', order: { kind: 'hold', unit: { at: 'Ath' } } }] };
    expect(JSON.parse(serialize(mixed)).checked).toEqual([{ accepted: false, input: 'F Ath - Aeg', reason: 'refused' }]);
  });

  test('nothing undeclared is written, however deep', () => {
    const body = answer(verdicts);
    const leaky = {
      ...body,
      secret: 'top level',
      submission: { ...body.submission, secret: 'submission', orders: body.submission.orders.map((order) => ({ ...order, secret: 1 })) },
      checked: body.checked.map((verdict) => ({ ...verdict, secret: 2, ...(verdict.accepted ? { order: { ...verdict.order, secret: 3 } } : {}) })),
    };
    const written = serialize(leaky);
    expect(written).not.toContain('secret');
    expect(JSON.parse(written)).toEqual(body);
  });

  test('only unions with a constant that tells every branch apart are rewritten', () => {
    const plain = { anyOf: [{ type: 'string' }, { type: 'number' }] };
    expect(branchesByDiscriminator(plain)).toEqual(plain);
    const shared = {
      oneOf: [
        { type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] },
        { type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] },
      ],
    };
    expect(branchesByDiscriminator(shared)).toEqual(shared);
    const optional = {
      oneOf: [
        { type: 'object', properties: { kind: { const: 'a' } } },
        { type: 'object', properties: { kind: { const: 'b' } }, required: ['kind'] },
      ],
    };
    expect(branchesByDiscriminator(optional)).toEqual(optional);
    const told = {
      description: 'kept',
      oneOf: [
        { type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] },
        { type: 'object', properties: { kind: { const: 'b' } }, required: ['kind'] },
      ],
    };
    expect(branchesByDiscriminator(told)).toEqual({
      description: 'kept',
      if: { type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword.
      then: told.oneOf[0],
      else: told.oneOf[1],
    });
  });
});
