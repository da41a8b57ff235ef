import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Camera } from 'sigma';
import { createCameraMotion, skippedWhileMoving } from '../src/views/graph/cameraMotion.js';

/** Sigma's camera as the motion tracker sees it: an emitter of 'updated'. */
function fakeSigma() {
  const camera = new EventEmitter();
  const sigma = { getCamera: () => camera as unknown as Camera, scheduleRender: vi.fn() };
  return { camera, sigma };
}

describe('camera motion (edges skipped while the camera moves)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('moves from a camera change until the camera has been still for the settle time, then asks for a full frame', () => {
    const { camera, sigma } = fakeSigma();
    const motion = createCameraMotion(150);
    motion.follow(sigma);
    expect(motion.moving).toBe(false);
    camera.emit('updated');
    expect(motion.moving).toBe(true);
    vi.advanceTimersByTime(100);
    camera.emit('updated'); // still moving: the settle time starts again
    vi.advanceTimersByTime(100);
    expect(motion.moving).toBe(true);
    expect(sigma.scheduleRender).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(motion.moving).toBe(false);
    expect(sigma.scheduleRender).toHaveBeenCalledTimes(1);
  });

  it('stops following: no longer moving, no redraw scheduled after the view is gone', () => {
    const { camera, sigma } = fakeSigma();
    const motion = createCameraMotion(150);
    const stop = motion.follow(sigma);
    camera.emit('updated');
    stop();
    expect(motion.moving).toBe(false);
    camera.emit('updated');
    vi.advanceTimersByTime(500);
    expect(motion.moving).toBe(false);
    expect(sigma.scheduleRender).not.toHaveBeenCalled();
  });

  it('draws nothing while the program is skipped, and as before once it is not', () => {
    class Drawn {
      draws = 0;
      render(): void {
        this.draws++;
      }
    }
    let skip = true;
    const Wrapped = skippedWhileMoving(Drawn, () => skip);
    const program = new Wrapped();
    program.render();
    expect(program.draws).toBe(0);
    skip = false;
    program.render();
    expect(program.draws).toBe(1);
  });
});
