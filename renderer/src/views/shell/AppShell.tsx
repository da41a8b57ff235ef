import { useReverie } from '../../store/useReverie.js';
import { AgentsView } from '../agents/AgentsView.js';
import { DreamsView } from '../dreams/DreamsView.js';
import { GraphView } from '../graph/GraphView.js';
import { ImportsView } from '../imports/ImportsView.js';
import { MemoryView } from '../memory/MemoryView.js';
import { NoteDialog } from '../memory/NoteDialog.js';
import { UndoDeleteToast } from '../memory/UndoDeleteToast.js';
import { HeldActionToast } from './HeldActionToast.js';
import { KeyboardLayer } from '../palette/KeyboardLayer.js';
import { ProvenancePanel } from '../provenance/ProvenancePanel.js';
import { SearchView } from '../search/SearchView.js';
import { SettingsView } from '../settings/SettingsView.js';
import { StatusView } from '../status/StatusView.js';
import { WelcomePanel } from '../welcome/WelcomePanel.js';
import { ConnectionBanner } from './ConnectionBanner.js';
import { EngineBanner } from './EngineBanner.js';
import { NavBar } from './NavBar.js';
import { StatusBar } from './StatusBar.js';
import './shell.css';

export function AppShell() {
  const view = useReverie((s) => s.app.view);
  const hasInspector = useReverie((s) => s.provenance.isOpen);
  return (
    <div className={`shell${hasInspector ? ' with-inspector' : ''}`}>
      <NavBar />
      <main className="main" id="main">
        <ConnectionBanner />
        <EngineBanner />
        <WelcomePanel />
        {view === 'search' && <SearchView />}
        {view === 'memory' && <MemoryView />}
        {view === 'imports' && <ImportsView />}
        {view === 'dreams' && <DreamsView />}
        {view === 'graph' && <GraphView />}
        {view === 'agents' && <AgentsView />}
        {view === 'status' && <StatusView />}
        {view === 'settings' && <SettingsView />}
      </main>
      <StatusBar />
      <ProvenancePanel />
      <KeyboardLayer />
      <NoteDialog />
      <div className="toasts">
        <UndoDeleteToast />
        <HeldActionToast />
      </div>
    </div>
  );
}
