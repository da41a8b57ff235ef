/**
 * Which labels the drawing shows, so that no two overlap: the most important entities first,
 * each label kept only when its box is on screen and clear of every box already placed
 * (cluster names are placed before any entity label). Pure: the view passes screen positions
 * and a text measure; a unit test passes numbers.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LabelCandidate {
  id: string;
  text: string;
  /** Where the label's anchor is on screen (CSS pixels). */
  x: number;
  y: number;
  /** Higher first. */
  priority: number;
  /** Pixels between the anchor and the text's left edge (an entity's disc radius plus a gap), or 'centre'. */
  offset: number | 'centre';
}

export interface PlacedLabel extends Box {
  id: string;
  text: string;
}

export interface PlacementOptions {
  width: number;
  height: number;
  fontSize: number;
  measure(text: string): number;
  /** At most this many labels (the rest are culled as if they collided). */
  maxLabels: number;
  /** Room kept free around each label. */
  padding?: number;
  /** Boxes already taken (cluster names placed before the entity labels). */
  reservedBoxes?: readonly Box[];
}

/** Cells of the collision grid (pixels): a label box touches a handful of cells. */
const CELL = 64;

export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Placed boxes by grid cell, so a new box is only compared with its neighbours. */
class BoxGrid {
  private readonly cells = new Map<number, Box[]>();

  private *cellsOf(box: Box): Generator<number> {
    for (let cx = Math.floor(box.x / CELL); cx <= Math.floor((box.x + box.width) / CELL); cx++)
      for (let cy = Math.floor(box.y / CELL); cy <= Math.floor((box.y + box.height) / CELL); cy++) yield cx * 100_003 + cy;
  }

  collides(box: Box): boolean {
    for (const cell of this.cellsOf(box)) for (const other of this.cells.get(cell) ?? []) if (overlaps(box, other)) return true;
    return false;
  }

  add(box: Box): void {
    for (const cell of this.cellsOf(box)) {
      const list = this.cells.get(cell);
      if (list) list.push(box);
      else this.cells.set(cell, [box]);
    }
  }
}

/** The labels to draw, most important first, none overlapping another or leaving the screen. */
export function placeLabels(candidates: readonly LabelCandidate[], options: PlacementOptions): PlacedLabel[] {
  const padding = options.padding ?? 2;
  const grid = new BoxGrid();
  for (const box of options.reservedBoxes ?? []) grid.add(box);
  const placed: PlacedLabel[] = [];
  const ordered = [...candidates].sort((a, b) => b.priority - a.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const candidate of ordered) {
    if (placed.length >= options.maxLabels) break;
    const width = options.measure(candidate.text);
    const height = options.fontSize * 1.25;
    const left = candidate.offset === 'centre' ? candidate.x - width / 2 : candidate.x + candidate.offset;
    const box: Box = { x: left - padding, y: candidate.y - height / 2 - padding, width: width + 2 * padding, height: height + 2 * padding };
    if (box.x < 0 || box.y < 0 || box.x + box.width > options.width || box.y + box.height > options.height) continue;
    if (grid.collides(box)) continue;
    grid.add(box);
    placed.push({ id: candidate.id, text: candidate.text, x: left, y: candidate.y - height / 2, width, height });
  }
  return placed;
}
