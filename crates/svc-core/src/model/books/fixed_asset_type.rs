//! Wire types of fixed asset types.

use super::fixed_asset::{ComputationType, DepreciationFrequency, DepreciationMethod};
use crate::model::common::{wire, Id, JsonNumber, PageNumber, Percentage};

wire! {
    /// Body of `createFixedAssetType`.
    request FixedAssetTypeInput {
        fixed_asset_type_name?: String,
        expense_account_id?: Id,
        depreciation_account_id?: Id,
        depreciation_method?: DepreciationMethod,
        depreciation_frequency?: DepreciationFrequency,
        depreciation_percentage?: Percentage,
        total_life?: JsonNumber,
        salvage_value?: JsonNumber,
        computation_type?: ComputationType,
    }
    /// Body of `updateFixedAssetType`: every field required.
    all required FixedAssetTypeUpdateInput
}

wire! {
    response FixedAssetType {
        fixed_asset_type_id: Id,
        fixed_asset_type_name?: String,
        expense_account_id?: Id,
        expense_account_name?: String,
        depreciation_account_id?: Id,
        depreciation_account_name?: String,
        #[tsify(type = "DepreciationMethod")]
        depreciation_method?: String,
        depreciation_percentage?: JsonNumber,
        total_life?: JsonNumber,
        #[tsify(type = "DepreciationFrequency")]
        depreciation_frequency?: String,
        salvage_value?: JsonNumber,
        #[tsify(type = "ComputationType")]
        computation_type?: String,
    }
}

wire! {
    /// Query of `listFixedAssetTypes`.
    request FixedAssetTypeListQuery {
        page?: PageNumber,
        per_page?: PageNumber,
    }
}
