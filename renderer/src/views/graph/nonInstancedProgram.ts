/**
 * A sigma program drawn without instancing: the same shaders and look, with each item's vertices
 * written out in full (its own attributes plus that vertex's constant ones) and one plain draw
 * call. Sigma's disc, rectangle-edge and curve programs are instanced; with software WebGL
 * (SwiftShader, what Chromium falls back to without a GPU) an instanced draw costs about as much
 * per instance as a draw call, so 2,000 discs and 8,000 edges took hundreds of milliseconds a
 * frame, where the same triangles without instancing take a few.
 */
import type { Program } from 'sigma/rendering';
import { getAttributesItemsCount } from 'sigma/rendering';
import type { InstancedProgramDefinition, ProgramDefinition } from 'sigma/rendering';

/** What this file needs of a sigma program class (its definition and how it writes an item). */
type ProgramClass = new (...args: any[]) => Program & { processVisibleItem(...args: unknown[]): void }; // eslint-disable-line @typescript-eslint/no-explicit-any

function isInstanced(def: ProgramDefinition | InstancedProgramDefinition): def is InstancedProgramDefinition {
  return 'CONSTANT_ATTRIBUTES' in def;
}

/** `Base` with its constant (per-vertex) attributes moved into every item's vertices. A non-instanced `Base` is returned as is. */
export function nonInstanced<T>(Base: T): T {
  const Parent = Base as unknown as ProgramClass;
  const original = (self: Program): ProgramDefinition | InstancedProgramDefinition => Parent.prototype.getDefinition.call(self);
  if (!isInstanced(original(Object.create(Parent.prototype) as Program))) return Base;
  abstract class NonInstanced extends Parent {
    /** The instanced definition: items' own attribute count, and each vertex's constant data. */
    private instancedLayout?: { itemItems: number; constants: number[][] };

    private layout(): { itemItems: number; constants: number[][] } {
      if (!this.instancedLayout) {
        const def = original(this) as InstancedProgramDefinition;
        this.instancedLayout = { itemItems: getAttributesItemsCount(def.ATTRIBUTES), constants: def.CONSTANT_DATA };
      }
      return this.instancedLayout;
    }

    override getDefinition(): ProgramDefinition {
      const { CONSTANT_ATTRIBUTES, CONSTANT_DATA: _constants, ...plain } = original(this) as InstancedProgramDefinition;
      return { ...plain, ATTRIBUTES: [...plain.ATTRIBUTES, ...CONSTANT_ATTRIBUTES] };
    }

    /** The item's attributes as `Base` writes them once, copied into each of its vertices, each followed by that vertex's constants. */
    override processVisibleItem(...args: unknown[]): void {
      const start = args[1] as number;
      super.processVisibleItem(...args);
      const { itemItems, constants } = this.layout();
      const array = this.array;
      const vertexItems = this.ATTRIBUTES_ITEMS_COUNT;
      for (let v = constants.length - 1; v >= 0; v--) {
        const at = start + v * vertexItems;
        if (v > 0) array.copyWithin(at, start, start + itemItems);
        const constant = constants[v]!;
        for (let c = 0; c < constant.length; c++) array[at + itemItems + c] = constant[c]!;
      }
    }
  }
  return NonInstanced as unknown as T;
}
