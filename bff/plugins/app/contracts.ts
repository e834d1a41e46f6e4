import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { createContractService, type ContractService } from '../../services/contracts';
import { createFileImageStorage, type ImageStorage } from '../../services/image-storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** The terms-of-service task and contracts of the signed-in user's properties (SPEC §2, §3, §5). */
    contracts: ContractService;
  }
}

/** Options: the configuration, the clock, and storage to use instead of files under DATA_DIR. */
export interface ContractsPluginOptions {
  config: Config;
  now: () => number;
  storage?: ImageStorage;
}

/** Decorates `app.contracts` over `app.db`: contract PDFs under `<DATA_DIR>/uploads/contracts/`. */
export default fp<ContractsPluginOptions>(
  async (app, { config, now, storage }) => {
    app.decorate(
      'contracts',
      createContractService(app.db, {
        storage: storage ?? createFileImageStorage(config.dataDir),
        now,
        ...(app.hasDecorator('translations') ? { translations: app.translations } : {}),
      }),
    );
  },
  { name: 'contracts', dependencies: ['db'] },
);
