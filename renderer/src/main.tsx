import './zodConfig.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/app.css';
import './styles/controls.css';
import { createMemoryClient } from './client/memoryClient.js';
import { browserHistory, syncUrlWithStore } from './routing/urlSync.js';
import { connectStore, createReverieStore } from './store/store.js';
import { StoreContext } from './store/useReverie.js';
import { AppShell } from './views/shell/AppShell.js';
import { exposeStateOnBody, guardUnsavedEditsOnUnload } from './views/shell/pageBindings.js';

const client = createMemoryClient();
const store = createReverieStore(client);
exposeStateOnBody(store);
guardUnsavedEditsOnUnload(store);
connectStore(store, client);
// After the client took the token out of the address: what is left is the route.
syncUrlWithStore(store, browserHistory());

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');
createRoot(container).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <AppShell />
    </StoreContext.Provider>
  </StrictMode>,
);
