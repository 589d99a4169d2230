import type { Builder, Dataquery } from "@grafana/grafana-foundation-sdk/cog";
import type { DataSourceRef } from "@grafana/grafana-foundation-sdk/common";

// Grafana's PostgreSQL data source query. The Foundation SDK ships builders for many data sources but
// not this one, so it is defined here the way the SDK documents custom query types.

export const POSTGRES: DataSourceRef = { type: "grafana-postgresql-datasource", uid: "loom-matrix-postgres" };

export type SqlFormat = "table" | "time_series";

export interface SqlQuery {
  refId?: string;
  hide?: boolean;
  datasource: DataSourceRef;
  editorMode: "code";
  rawQuery: true;
  rawSql: string;
  format: SqlFormat;
  _implementsDataqueryVariant(): void;
}

export class SqlQueryBuilder implements Builder<Dataquery> {
  private readonly internal: SqlQuery;

  constructor(sql: string, format: SqlFormat = "table") {
    this.internal = {
      datasource: POSTGRES,
      editorMode: "code",
      rawQuery: true,
      rawSql: sql.trim(),
      format,
      _implementsDataqueryVariant() {},
    };
  }

  refId(refId: string): this {
    this.internal.refId = refId;
    return this;
  }

  build(): SqlQuery {
    return this.internal;
  }
}
