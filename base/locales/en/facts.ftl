facts-valid-until-no-newer-value = (valid until { $until }; no newer value yet)
facts-source = (source: { $source })
facts-month-of-year = { $month } { $year }
facts-source-of = { $checked ->
    [true] (source: { $source }, checked { $when })
   *[false] (source: { $source }, { $when })
}
