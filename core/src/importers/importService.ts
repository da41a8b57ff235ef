import type { EngineEvent, HandlersFor } from '../contract/index.js';
import type { IndexService } from '../index/indexService.js';
import { applyImport } from './apply.js';
import { allImportSources, detectImportSources } from './detect.js';
import { recordImportProvenance } from './importProvenance.js';
import { planImport } from './plan.js';
import { listImportReports } from './report.js';
import { removeStaleStagingFolders } from './stagingFolders.js';

export interface ImportServiceOptions {
  workspaceRoot: string;
  dataDir: string;
  index: IndexService;
  emit(event: EngineEvent): void;
}

/** `import.*`: find other tools' memories, plan copying them into the workspace, copy, and list past reports. */
export class ImportService {
  readonly handlers: HandlersFor<'import.detect' | 'import.plan' | 'import.apply' | 'import.reports'>;

  constructor(options: ImportServiceOptions) {
    const { workspaceRoot, dataDir, index } = options;
    // Staging folders of imports killed mid-copy go at the next start, not only at the next import.
    removeStaleStagingFolders(workspaceRoot);
    this.handlers = {
      'import.detect': async ({ sources }) => ({ sources: detectImportSources(sources) }),
      'import.plan': async ({ sources }) => planImport({ workspaceRoot, sources: sources ?? allImportSources() }),
      'import.apply': async ({ plan, sources, replace, exclude }) => {
        // A saved plan is checked against the disk (fingerprint); a fresh one was just read from it.
        const chosen = plan ?? (await planImport({ workspaceRoot, sources: sources ?? allImportSources() }));
        const report = await applyImport(chosen, {
          workspaceRoot,
          dataDir,
          replace,
          exclude,
          verifyFingerprint: plan !== undefined,
          onProgress: (p) => options.emit({ type: 'import-progress', ...p }),
        });
        recordImportProvenance(index.db, workspaceRoot, report);
        if (report.copied + report.replaced > 0) await index.sync(false);
        return report;
      },
      'import.reports': async () => ({ reports: listImportReports(dataDir) }),
    };
  }
}
