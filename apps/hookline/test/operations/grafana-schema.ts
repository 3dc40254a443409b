// Grafana's dashboard schema, as Grafana publishes it for the release the dashboard declares (@grafana/schema
// is generated from the CUE kinds that Grafana itself validates dashboards with). The dashboard checker
// compiles the dashboard's JSON against `GrafanaDashboard`, so any key Grafana does not know, a value of the
// wrong type or an enum value it does not accept is an error naming the line.
import type {
  DataSourceRef,
  Dashboard,
  FieldConfig,
  GraphFieldConfig,
  MatcherConfig,
  RowPanel,
  TableFieldOptions,
} from '@grafana/schema';
import type { PrometheusDataQuery } from '@grafana/schema/dist/esm/raw/composable/prometheus/dataquery/x/PrometheusDataQuery_types.gen';
import type { Options as StatOptions } from '@grafana/schema/dist/esm/raw/composable/stat/panelcfg/x/StatPanelCfg_types.gen';
import type { Options as TableOptions } from '@grafana/schema/dist/esm/raw/composable/table/panelcfg/x/TablePanelCfg_types.gen';
import type { Options as TimeSeriesOptions } from '@grafana/schema/dist/esm/raw/composable/timeseries/panelcfg/x/TimeSeriesPanelCfg_types.gen';

/** The type's JSON form: the schema's string enums are written as their values in a dashboard file. */
type Json<T> = T extends string
  ? `${T}`
  : T extends readonly (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

/**
 * Grafana merges a panel plugin's defaults into the options a file leaves out, so options may be partial;
 * what is there must still be a known option with a value the plugin accepts.
 */
type Partially<T> = T extends string | number | boolean
  ? T
  : T extends readonly (infer U)[]
    ? Partially<U>[]
    : T extends object
      ? { [K in keyof T]?: Partially<T[K]> }
      : T;

type FieldConfigOf<Custom> = {
  defaults: Omit<FieldConfig, 'custom'> & { custom?: Partially<Custom> };
  overrides: { matcher: MatcherConfig; properties: { id: string; value?: unknown }[] }[];
};

// The panel fields every visualisation shares, from the schema's Panel, with hookline's query type.
type PanelBase = Omit<
  Dashboard['panels'] extends (infer P)[] | undefined ? Exclude<P, RowPanel> : never,
  'type' | 'options' | 'fieldConfig' | 'targets' | 'datasource'
> & {
  datasource?: DataSourceRef;
  targets?: PrometheusDataQuery[];
};

type PanelOf<Type extends string, Options, Custom> = PanelBase & {
  type: Type;
  options?: Partially<Options>;
  fieldConfig?: FieldConfigOf<Custom>;
};

/** The visualisations hookline's dashboard uses; another panel type is an error until it is added here. */
type HooklinePanel =
  | PanelOf<'timeseries', TimeSeriesOptions, GraphFieldConfig>
  | PanelOf<'stat', StatOptions, Record<string, never>>
  | PanelOf<'table', TableOptions, TableFieldOptions>
  | (Omit<RowPanel, 'panels'> & { panels: HooklinePanel[] });

/** What a dashboard exported for sharing declares it needs: the Grafana release, data sources, panel plugins. */
interface Requirement {
  type: 'grafana' | 'datasource' | 'panel';
  id: string;
  name: string;
  version: string;
}

export type GrafanaDashboard = Json<Omit<Dashboard, 'panels'> & { panels?: HooklinePanel[] }> & {
  __requires?: Requirement[];
};
