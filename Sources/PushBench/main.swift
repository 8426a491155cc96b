print("PushBench")
