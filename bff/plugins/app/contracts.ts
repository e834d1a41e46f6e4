import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { createContractService, type ContractService } from '../../services/contracts';
import { createDatabaseImageStorage, type ImageStorage } from '../../services/image-storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** The terms-of-service task and contracts of the signed-in user's properties (SPEC §2, §3, §5). */
    contracts: ContractService;
  }
}

/** Options: the configuration (unused since files live in the database), the clock, and storage to use instead of table stored_files. */
export interface ContractsPluginOptions {
  config: Config;
  now: () => number;
  storage?: ImageStorage;
}

/** Decorates `app.contracts` over `app.db`: contract PDFs in table stored_files (keys `contracts/…`). */
export default fp<ContractsPluginOptions>(
  async (app, { now, storage }) => {
    app.decorate(
      'contracts',
      createContractService(app.db, {
        storage: storage ?? createDatabaseImageStorage(app.db),
        now,
        ...(app.hasDecorator('translations') ? { translations: app.translations } : {}),
      }),
    );
  },
  { name: 'contracts', dependencies: ['db'] },
);
