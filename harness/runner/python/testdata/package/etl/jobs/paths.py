def month_of(path):
    # s3://bucket/sales/2024-05-17/part-0.csv -> 5
    for part in path.split("/"):
        if len(part) == 10 and part[4] == "-" and part[7] == "-":
            return int(part[5:7])
    return None
