facts-valid-until-no-newer-value = (valid until { $until }; no newer value yet)
facts-source = (source: { $source })
