facts-valid-until-no-newer-value = (valor válido até { $until }; ainda sem valor mais novo)
facts-source = (fonte: { $source })
