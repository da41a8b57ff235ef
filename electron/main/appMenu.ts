import type { MenuItemConstructorOptions } from 'electron';

/** What the menu and the tray can ask for; main.ts wires each to the engine or the window. */
export interface AppCommands {
  openWorkspace(): void;
  search(): void;
  dreamNow(): void;
  setIndexingPaused(paused: boolean): void;
  openDataFolder(): void;
  showWindow(): void;
  quit(): void;
}

export interface MenuState {
  indexingPaused: boolean;
  isMac: boolean;
}

function memoryItems(commands: AppCommands, state: MenuState): MenuItemConstructorOptions[] {
  return [
    { label: 'Open Workspace…', accelerator: 'CmdOrCtrl+O', click: () => commands.openWorkspace() },
    { label: 'Search', accelerator: 'CmdOrCtrl+K', click: () => commands.search() },
    { type: 'separator' },
    { label: 'Dream Now', accelerator: 'CmdOrCtrl+Shift+D', click: () => commands.dreamNow() },
    {
      label: state.indexingPaused ? 'Resume Indexing' : 'Pause Indexing',
      click: () => commands.setIndexingPaused(!state.indexingPaused),
    },
    { type: 'separator' },
    { label: 'Open Data Folder', click: () => commands.openDataFolder() },
  ];
}

export function applicationMenuTemplate(commands: AppCommands, state: MenuState): MenuItemConstructorOptions[] {
  const quit: MenuItemConstructorOptions = { label: 'Quit Reverie', accelerator: 'CmdOrCtrl+Q', click: () => commands.quit() };
  return [
    ...(state.isMac ? [{ label: 'Reverie', submenu: [{ role: 'about' as const }, { type: 'separator' as const }, { role: 'hide' as const }, { role: 'unhide' as const }, { type: 'separator' as const }, quit] }] : []),
    { label: 'File', submenu: [...memoryItems(commands, state), ...(state.isMac ? [] : [{ type: 'separator' as const }, quit])] },
    { label: 'Edit', submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }] },
    { label: 'View', submenu: [{ role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }] },
    { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close' }] },
  ];
}

export function trayMenuTemplate(commands: AppCommands, state: MenuState): MenuItemConstructorOptions[] {
  return [{ label: 'Show Reverie', click: () => commands.showWindow() }, { type: 'separator' }, ...memoryItems(commands, state), { type: 'separator' }, { label: 'Quit Reverie', click: () => commands.quit() }];
}
