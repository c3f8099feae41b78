//! Wire types of fixed assets: bodies, sales, write-offs, comments, forecasts and history.

use super::shared::{CustomField, CustomFieldInput};
use crate::model::common::{
    value_set, wire, Extra, Id, IsoDate, JsonInteger, JsonNumber, PageNumber, Percentage, Tag,
};
use crate::schema::Check;

value_set! {
    /// `200_declining_method` and `150_declining_method` exist in the US and global editions.
    DepreciationMethod {
        DecliningMethod = "declining_method",
        StraightLine = "straight_line",
        DecliningMethod200 = "200_declining_method",
        DecliningMethod150 = "150_declining_method",
    }
}

value_set! {
    DepreciationFrequency { Yearly = "yearly", Monthly = "monthly" }
}

value_set! {
    ComputationType { ProrataBasis = "prorata_basis", NoProrata = "no_prorata" }
}

value_set! {
    /// The status an asset reports: the list filter's values (`Status.Active`...) as an asset carries
    /// them, a new asset being `draft`. An answer's other values are kept as they come.
    FixedAssetStatus {
        Draft = "draft",
        Active = "active",
        Cancel = "cancel",
        FullyDepreciated = "fully_depreciated",
        WriteOff = "write_off",
        Sold = "sold",
    }
}

value_set! {
    /// Filter of the fixed asset list.
    blank FixedAssetFilter {
        All = "Status.All",
        Active = "Status.Active",
        Cancel = "Status.Cancel",
        FullyDepreciated = "Status.FullyDepreciated",
        WriteOff = "Status.WriteOff",
        Sold = "Status.Sold",
        Draft = "Status.Draft",
    }
}

value_set! {
    blank FixedAssetSortColumn {
        AssetName = "asset_name",
        AssetNumber = "asset_number",
        AssetCost = "asset_cost",
        CreatedTime = "created_time",
        CurrentAssetValue = "current_asset_value",
    }
}

value_set! {
    /// `A` ascending, `D` descending.
    blank SortOrder { Ascending = "A", Descending = "D" }
}

wire! {
    /// Body of `createFixedAsset` and `updateFixedAsset`.
    request FixedAssetInput {
        asset_name: String,
        fixed_asset_type_id: Id,
        asset_account_id: Id,
        expense_account_id?: Id,
        depreciation_account_id?: Id,
        depreciation_method?: DepreciationMethod,
        depreciation_frequency?: DepreciationFrequency,
        /// 0 to 100; declining methods only.
        depreciation_percentage?: Percentage,
        /// Months.
        total_life?: JsonNumber,
        salvage_value?: JsonNumber,
        depreciation_start_date?: IsoDate,
        description?: String,
        notes?: String,
        serial_no?: String,
        asset_cost: JsonNumber,
        asset_purchase_date: IsoDate,
        computation_type?: ComputationType,
        warranty_expiry_date?: IsoDate,
        dep_start_value?: JsonNumber,
        tags?: Vec<Tag>,
        custom_fields?: Vec<CustomFieldInput>,
    } checks [
        Check::NotAllowedWhen {
            field: "depreciation_percentage",
            when: "depreciation_method",
            equals: DepreciationMethod::StraightLine.as_str(),
            applies_to: "declining methods",
        },
    ]
}

wire! {
    response FixedAssetComment {
        comment_id?: Id,
        description?: String,
        commented_by_id?: Id,
        commented_by?: String,
        comment_type?: String,
        date?: String,
        date_description?: String,
        time?: String,
        operation_type?: String,
    }
}

wire! {
    response FixedAsset {
        fixed_asset_id: Id,
        asset_name?: String,
        #[tsify(type = "FixedAssetStatus")]
        status?: String,
        asset_number?: String,
        asset_number_prefix?: String,
        asset_number_suffix?: JsonInteger,
        fixed_asset_type_id?: Id,
        fixed_asset_type_name?: String,
        asset_account_id?: Id,
        asset_account_name?: String,
        expense_account_id?: Id,
        expense_account_name?: String,
        depreciation_account_id?: Id,
        depreciation_account_name?: String,
        #[tsify(type = "DepreciationMethod")]
        depreciation_method?: String,
        #[tsify(type = "DepreciationFrequency")]
        depreciation_frequency?: String,
        depreciation_percentage?: JsonNumber,
        total_life?: JsonNumber,
        salvage_value?: JsonNumber,
        depreciation_start_date?: String,
        description?: String,
        notes?: String,
        serial_no?: String,
        asset_cost?: JsonNumber,
        asset_purchase_date?: String,
        #[tsify(type = "ComputationType")]
        computation_type?: String,
        warranty_expiry_date?: String,
        dep_start_value?: JsonNumber,
        current_asset_value?: JsonNumber,
        accumulated_dep_value?: JsonNumber,
        last_depreciation_date?: String,
        tags?: Vec<Tag>,
        custom_fields?: Vec<CustomField>,
        #[tsify(type = "Record<string, unknown>[]")]
        associated_transactions?: Vec<Extra>,
        comments?: Vec<FixedAssetComment>,
    }
}

wire! {
    /// An entry of `listFixedAssets`.
    response FixedAssetListEntry {
        fixed_asset_id: Id,
        asset_number?: String,
        asset_name?: String,
        #[tsify(type = "FixedAssetStatus")]
        status?: String,
        current_asset_value?: JsonNumber,
        asset_cost?: JsonNumber,
        fixed_asset_type_name?: String,
    }
}

wire! {
    /// Query of `listFixedAssets`.
    request FixedAssetListQuery {
        filter_by?: FixedAssetFilter,
        sort_column?: FixedAssetSortColumn,
        sort_order?: SortOrder,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// Body of `addFixedAssetComment`.
    request FixedAssetCommentInput {
        description?: String,
    }
}

wire! {
    /// Body of `sellFixedAsset`.
    request FixedAssetSaleInput {
        expense_account_id?: Id,
        invoice_id?: Id,
        line_item_id?: Id,
        reason?: String,
    }
}

wire! {
    /// Body of `writeOffFixedAsset`.
    request FixedAssetWriteOffInput {
        date?: IsoDate,
        expense_account_id?: Id,
        reason?: String,
    }
}

wire! {
    /// One period of `getFixedAssetForecast`.
    response FixedAssetForecastEntry {
        valuation_date?: String,
        depreciated_value?: JsonNumber,
        current_value?: JsonNumber,
        accumulated_value?: JsonNumber,
    }
}

wire! {
    /// One entry of `getFixedAssetHistory`.
    response FixedAssetHistoryEntry {
        valuation_id?: Id,
        description?: String,
        valuation_date?: String,
        depreciated_value?: JsonNumber,
        current_value?: JsonNumber,
        accumulated_value?: JsonNumber,
        #[serde(rename = "type")]
        entry_type?: String,
        is_journal_posted?: bool,
    }
}

wire! {
    /// Query of `getFixedAssetHistory`.
    request FixedAssetHistoryQuery {
        page?: PageNumber,
        per_page?: PageNumber,
    }
}
