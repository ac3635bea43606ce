import { NO_DATA_SOURCES } from '@dyno/scenarios/data'
import { type DynamicModule, Module, type Type } from '@nestjs/common'
import { ContractController } from './contract.controller.js'
import { DATA_SOURCES, type DataSources } from './data-sources.js'
import { ExtraRoutesController } from './extra-routes.controller.js'

export interface AppModuleOptions {
  /** the data sources of the database scenarios (none by default: those routes then answer 500) */
  data?: DataSources
  /** `ContractController`, or the subclass of it a platform needs (a route that has to say more on it) */
  contractController?: Type<ContractController>
}

@Module({})
export class AppModule {
  /**
   * The whole dyno contract: the contract controller and the 20 extra routes, with `data` as the value provider
   * of `DATA_SOURCES`, which the contract controller injects.
   */
  static forRoot ({ data = NO_DATA_SOURCES, contractController = ContractController }: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      controllers: [contractController, ExtraRoutesController],
      providers: [{ provide: DATA_SOURCES, useValue: data }]
    }
  }
}
