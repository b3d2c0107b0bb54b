facts-valid-until-no-newer-value = (valor válido até { $until }; ainda sem valor mais novo)
facts-source = (fonte: { $source })
facts-month-of-year = { $month } de { $year }
facts-source-of = { $checked ->
    [true] (fonte: { $source }, conferido em { $when })
   *[false] (fonte: { $source }, { $when })
}
