import { describe, expect, it, vi } from 'vitest';
import { sharedAjv } from '../../../schemas/ajv';
import { lazySerializerFactory, lazyValidator } from './schemas';

describe('route schemas compiled on first use (issue 13 item 5)', () => {
  it('compiles a validator on its first call only, and hands Fastify the errors of each call', () => {
    const compile = vi.fn(
      () =>
        sharedAjv().compile({
          type: 'object',
          properties: { n: { type: 'integer' } },
          required: ['n'],
        }) as Parameters<typeof lazyValidator>[0] extends () => infer V ? V : never,
    );
    const validate = lazyValidator(compile);
    expect(compile).not.toHaveBeenCalled();
    expect(validate({ n: 'x' })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe('/n');
    expect(validate({ n: 1 })).toBe(true);
    expect(validate.errors).toBeNull();
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('builds a serializer that leaves out what the schema does not list, on its first call', () => {
    const build = lazySerializerFactory({}, {});
    const serialize = build({
      method: 'GET',
      url: '/x',
      httpStatus: '200',
      schema: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } },
    } as Parameters<typeof build>[0]);
    expect(serialize({ a: 'b', secret: 1 })).toBe('{"a":"b"}');
  });
});
