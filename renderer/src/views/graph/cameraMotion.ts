/**
 * Whether the camera is moving (it changed within the last `settleMs`), from whatever moved it: a
 * drag, the wheel, an animation, a program. While it moves, a layer wrapped by `skippedWhileMoving`
 * (the edges) is not drawn; once it settles, sigma draws a full frame again. With software WebGL
 * the edges of a 2,000-entity graph are most of a frame's cost, and a pan needs the entities, not
 * the relations between them. Sigma's own `hideEdgesOnMove` only sees its mouse captor and camera
 * animations, not a camera set by code.
 */
import type { Camera } from 'sigma';
import type { Program } from 'sigma/rendering';
import type { RenderParams } from 'sigma/types';

/** Up to this many relations stay drawn while the camera moves; a larger graph shows its entities alone until the camera settles. */
export const EDGES_DRAWN_WHILE_MOVING = 1_000;

/** A camera idle this long has settled: the hidden layers are drawn again. */
export const SETTLE_MS = 150;

export interface CameraMotion {
  /** True from a camera change until it has been still for `settleMs`. */
  readonly moving: boolean;
  /** Follows `sigma`'s camera (redrawing in full when it settles); returns the function that stops following. */
  follow(sigma: { getCamera(): Camera; scheduleRender(): unknown }): () => void;
}

export function createCameraMotion(settleMs = SETTLE_MS): CameraMotion {
  let moving = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    get moving() {
      return moving;
    },
    follow(sigma) {
      const camera = sigma.getCamera();
      const settle = (): void => {
        timer = undefined;
        moving = false;
        sigma.scheduleRender();
      };
      const onUpdated = (): void => {
        moving = true;
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(settle, settleMs);
      };
      camera.on('updated', onUpdated);
      return () => {
        camera.removeListener('updated', onUpdated);
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        moving = false;
      };
    },
  };
}

type ProgramClass = new (...args: any[]) => Program; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `Base`, drawing nothing while `skip()` is true (its data stays indexed: the next still frame draws it as before). */
export function skippedWhileMoving<T>(Base: T, skip: () => boolean): T {
  abstract class SkippedWhileMoving extends (Base as unknown as ProgramClass) {
    override render(params: RenderParams): void {
      if (skip()) return;
      super.render(params);
    }
  }
  return SkippedWhileMoving as unknown as T;
}
