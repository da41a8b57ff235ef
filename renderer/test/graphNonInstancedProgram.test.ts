import { beforeAll, describe, expect, it } from 'vitest';
import type * as SigmaRendering from 'sigma/rendering';
import type { EdgeDisplayData, NodeDisplayData } from 'sigma/types';
import type * as NonInstancedModule from '../src/views/graph/nonInstancedProgram.js';

// Sigma's program modules read WebGL constants when imported, and a program compiles its shaders when built:
// the test gives them a stand-in context (no drawing happens here, only the vertex data is compared).
const fakeGl = new Proxy({}, { get: (_target, name) => (name === 'getAttribLocation' ? () => 0 : () => ({})) }) as unknown as WebGL2RenderingContext;

let rendering: typeof SigmaRendering;
let nonInstanced: typeof NonInstancedModule.nonInstanced;

beforeAll(async () => {
  const constants = { POINTS: 0, LINES: 1, TRIANGLES: 4, BYTE: 0x1400, UNSIGNED_BYTE: 0x1401, SHORT: 0x1402, UNSIGNED_SHORT: 0x1403, INT: 0x1404, UNSIGNED_INT: 0x1405, FLOAT: 0x1406, BOOL: 0x8b56 };
  const scope = globalThis as Record<string, unknown>;
  scope.WebGLRenderingContext ??= constants;
  scope.WebGL2RenderingContext ??= constants;
  rendering = await import('sigma/rendering');
  ({ nonInstanced } = await import('../src/views/graph/nonInstancedProgram.js'));
});

const node = (x: number, y: number): NodeDisplayData => ({ x, y, size: 4, color: '#336699', label: null, hidden: false, forceLabel: false, zIndex: 0, type: 'ring', highlighted: false });
const edge = (hidden = false): EdgeDisplayData => ({ size: 1.5, color: '#b8bfca', label: null, hidden, forceLabel: false, zIndex: 0, type: 'line' });

describe('nonInstanced (sigma programs without instancing)', () => {
  it("writes every vertex of an item: the item's attributes, then that vertex's constant attributes", () => {
    const { EdgeRectangleProgram } = rendering;
    const instanced = new EdgeRectangleProgram(fakeGl, null, {} as never);
    const Plain = nonInstanced(EdgeRectangleProgram);
    const plain = new Plain(fakeGl, null, {} as never);
    expect(instanced.isInstanced).toBe(true);
    expect(plain.isInstanced).toBe(false);

    const ends: Array<[NodeDisplayData, NodeDisplayData]> = [
      [node(0, 0), node(1, 2)],
      [node(-3, 1), node(5, -4)],
    ];
    instanced.reallocate(ends.length);
    plain.reallocate(ends.length);
    ends.forEach(([source, target], i) => {
      instanced.process(i + 1, i, source, target, edge());
      plain.process(i + 1, i, source, target, edge());
    });

    const itemItems = instanced.ATTRIBUTES_ITEMS_COUNT;
    const constants = instanced.CONSTANT_DATA;
    const vertexItems = itemItems + constants[0]!.length;
    expect(plain.ATTRIBUTES_ITEMS_COUNT).toBe(vertexItems);
    expect(plain.verticesCount).toBe(ends.length * instanced.VERTICES);
    expect(plain.array.length).toBe(ends.length * instanced.VERTICES * vertexItems);
    for (let item = 0; item < ends.length; item++) {
      const attributes = [...instanced.array.subarray(item * itemItems, (item + 1) * itemItems)];
      for (let v = 0; v < instanced.VERTICES; v++) {
        const at = (item * instanced.VERTICES + v) * vertexItems;
        expect([...plain.array.subarray(at, at + vertexItems)]).toEqual([...attributes, ...constants[v]!.map(Math.fround)]);
      }
    }
  });

  it('leaves a hidden item with all its vertices zero (nothing drawn)', () => {
    const Plain = nonInstanced(rendering.EdgeRectangleProgram);
    const plain = new Plain(fakeGl, null, {} as never);
    plain.reallocate(2);
    plain.array.fill(7);
    plain.process(1, 0, node(0, 0), node(1, 1), edge(true));
    plain.process(2, 1, node(0, 0), node(1, 1), edge());
    const stride = plain.VERTICES * plain.ATTRIBUTES_ITEMS_COUNT;
    expect([...plain.array.subarray(0, stride)].every((value) => value === 0)).toBe(true);
    expect([...plain.array.subarray(stride, 2 * stride)].some((value) => value !== 0)).toBe(true);
  });

  it('returns a program that is not instanced as it is', () => {
    expect(nonInstanced(rendering.EdgeLineProgram)).toBe(rendering.EdgeLineProgram);
  });
});
