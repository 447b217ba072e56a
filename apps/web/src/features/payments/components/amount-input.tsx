import { NumberInput, type NumberInputProps } from "@mantine/core";
import { RECHARGE_LIMITS_HINT, RECHARGE_MINIMUM_HINT } from "@prism/contract";
import { clampRechargeAmount } from "../lib/amount";

/**
 * A dollar amount of at least $20 (recharge, auto-recharge threshold and amount). Typing is free;
 * leaving the field raises a smaller or empty value to the minimum, so the minimum is
 * always named beside the field, after the field's own description when it has one.
 */
export function AmountInput({
  value,
  onChange,
  ...props
}: {
  value: number | string;
  onChange: (value: number | string) => void;
} & Omit<NumberInputProps, "value" | "onChange" | "min" | "max" | "clampBehavior">) {
  return (
    <NumberInput
      prefix="$"
      decimalScale={2}
      thousandSeparator=","
      allowNegative={false}
      clampBehavior="none"
      hideControls
      inputMode="decimal"
      {...props}
      value={value}
      onChange={onChange}
      onBlur={(event) => {
        onChange(clampRechargeAmount(value));
        props.onBlur?.(event);
      }}
      description={
        props.description ? `${props.description} (${RECHARGE_MINIMUM_HINT})` : RECHARGE_LIMITS_HINT
      }
    />
  );
}
